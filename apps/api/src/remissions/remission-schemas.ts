import Joi from 'joi';
import type { RemissionBody } from '@vf/contract';
import { isValidIsoDate } from '@vf/core';
import { envelope, environment, id, isoDay, nullableText, nullableTimestamp, text, timestamp } from '../shared/answer-schema-parts';

// A real calendar day: PostgreSQL refuses 2025-02-30 outright, so the shape alone is not enough.
const day = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .custom((value: string, helpers) => (isValidIsoDate(value) ? value : helpers.error('vf.invalid_format')))
  .messages({ 'string.pattern.base': '{#label} must be a date YYYY-MM-DD', 'vf.invalid_format': '{#label} must be a date YYYY-MM-DD' });

export const remissionCreateSchema = Joi.object<RemissionBody, true>({
  requirement_reference: Joi.string()
    .pattern(/^[0-9A-Za-z]{1,18}$/)
    .required()
    .description("The requerimiento's reference (RefRequerimiento) as the authority gives it: up to 18 letters and digits."),
  period: Joi.object({
    from: day.required().description('First invoice date (YYYY-MM-DD) of the records asked for.'),
    to: day.required().description('Last invoice date (YYYY-MM-DD), inclusive.'),
  })
    .required()
    .custom((value: { from: string; to: string }, helpers) => (value.from > value.to ? helpers.error('any.invalid') : value))
    .messages({ 'any.invalid': '"period.from" must not be after "period.to"' }),
});

const count = Joi.number().integer().min(0);
const nullableCount = count.allow(null);

const problem = Joi.object({
  invoice_number: text.required(),
  invoice_date: text.required(),
  state: Joi.string().valid('AceptadoConErrores', 'Incorrecto').required(),
  code: Joi.number().integer(),
  description: text,
});

const message = Joi.object({
  seq: count.required(),
  record_count: count.required(),
  last: Joi.boolean().required().description('FinRequerimiento=S: the last message of the remission.'),
  status: Joi.string().valid('waiting', 'in_flight', 'answered', 'refused').required(),
  attempts: count.required(),
  csv: nullableText.required(),
  send_state: nullableText.required().description('EstadoEnvio of the answer.'),
  accepted: nullableCount.required(),
  accepted_with_errors: nullableCount.required(),
  already_held: nullableCount.required().description('Records the authority already held (3000): delivered by an earlier attempt.'),
  rejected: nullableCount.required(),
  problems: Joi.array().items(problem).required().description('The records not taken as they were, with the code.'),
  last_error: nullableText.required(),
  sent_at: nullableTimestamp.required(),
  answered_at: nullableTimestamp.required(),
});

const explanation = Joi.object({ es: text.required(), en: text.required() });

export const remission = Joi.object({
  id: id.required(),
  taxpayer_id: id.required(),
  environment: environment.required(),
  requirement_reference: text.required(),
  period: Joi.object({ from: isoDay.required(), to: isoDay.required() }).required(),
  status: Joi.string().valid('sending', 'completed', 'failed').required(),
  record_count: count.required(),
  message_count: count.required(),
  messages_answered: count.required(),
  next_send_at: nullableTimestamp.required(),
  error: Joi.object({ code: Joi.number().integer().allow(null).required(), message: text.required(), explanation })
    .allow(null)
    .required(),
  created_at: timestamp.required(),
  finished_at: nullableTimestamp.required(),
  messages: Joi.array().items(message),
});

export const remissionResponse = envelope(remission);
export const remissionListResponse = Joi.object({ data: Joi.array().items(remission).required() });
