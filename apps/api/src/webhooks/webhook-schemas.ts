import Joi from 'joi';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@vf/core';
import type { renderDelivery, renderWebhook } from './webhook-view';
import { envelope, id, nullableText, nullableTimestamp, text, timestamp } from '../shared/answer-schema-parts';

export interface WebhookCreateRequest {
  url: string;
  events: WebhookEventType[];
}

// Plain http would expose the payloads; it is only for a receiver running on the developer's own machine.
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https anywhere, http only on localhost / 127.0.0.1; no credentials in the URL. */
export function webhookUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute https URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url must be an absolute https URL';
  if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname))
    return 'url must use https (http only on localhost or 127.0.0.1, for development)';
  if (url.username || url.password) return 'url must not contain credentials';
  return undefined;
}

export const webhookCreateSchema = Joi.object<WebhookCreateRequest, true>({
  url: Joi.string()
    .trim()
    .max(2000)
    .required()
    .custom((value: string, helpers) => {
      const problem = webhookUrlProblem(value);
      return problem ? helpers.error('vf.invalid_url', { problem }) : value;
    })
    .messages({ 'vf.invalid_url': '{{#problem}}' }),
  events: Joi.array()
    .items(Joi.string().valid(...WEBHOOK_EVENT_TYPES))
    .min(1)
    .unique()
    .required()
    .messages({ 'any.only': `events must be chosen from ${WEBHOOK_EVENT_TYPES.join(', ')}` }),
});

export const deliveryQuerySchema = Joi.object<{ limit: number }, true>({ limit: Joi.number().integer().min(1).max(200).default(50) });

// The answers.

const webhookKeys = {
  id: id.required(),
  url: Joi.string().uri().required(),
  events: Joi.array()
    .items(Joi.string().valid(...WEBHOOK_EVENT_TYPES))
    .required(),
  created_at: timestamp.required(),
};
export const webhook = Joi.object<ReturnType<typeof renderWebhook>, true>(webhookKeys);
export const createdWebhookResponse = envelope(
  Joi.object({
    ...webhookKeys,

    secret: Joi.string()
      .pattern(/^whsec_/)
      .required()
      .description('The signing secret, shown only here.'),
  }),
);

export const webhookDelivery = Joi.object<ReturnType<typeof renderDelivery>, true>({
  id: id.required(),
  event_type: text.required(),
  invoice_id: id.allow(null).required(),
  status: Joi.string().valid('pending', 'delivered', 'failed').required(),
  attempts: Joi.number().integer().min(0).required(),
  last_response_code: Joi.number().integer().allow(null).required(),
  last_error: nullableText.required(),
  next_attempt_at: nullableTimestamp.required(),
  delivered_at: nullableTimestamp.required(),
  created_at: timestamp.required(),
});
