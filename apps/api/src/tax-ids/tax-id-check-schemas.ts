import Joi from 'joi';
import { envelope, text, timestamp } from '../shared/answer-schema-parts';
import { spanishNif } from '../shared/nif-schema';

/** The most tax IDs answered in one synchronous request. */
export const MAX_SYNC_TAX_IDS = 100;
const ONE_DAY = 86_400;

export interface TaxIdCheckRequest {
  nif?: string;
  name?: string;
  tax_ids?: { nif: string; name: string }[];
  max_age: number;
  taxpayer_id?: string;
}

const name = Joi.string()
  .trim()
  .min(1)
  .max(120)
  .description('Nombre o razón social, as the census holds it (accents, case and spacing aside).');

export const taxIdCheckSchema = Joi.object<TaxIdCheckRequest, true>({
  nif: spanishNif,
  name,
  tax_ids: Joi.array()
    .items(Joi.object({ nif: spanishNif.required(), name: name.required() }))
    .min(1)
    .max(MAX_SYNC_TAX_IDS),
  max_age: Joi.number()
    .integer()
    .min(0)
    .max(366 * ONE_DAY)
    .default(ONE_DAY)
    .description(
      'Seconds: an answer the service already holds is used if it is not older than this (default one day; 0 always asks the census).',
    ),
  taxpayer_id: Joi.string()
    .guid()
    .description("A taxpayer of your account: the check goes out under its own certificate (the platform's otherwise)."),
})
  .xor('nif', 'tax_ids')
  .and('nif', 'name');

export const evidenceQuerySchema = Joi.object<{ tax_id?: string; limit: number }, true>({
  tax_id: spanishNif,
  limit: Joi.number().integer().min(1).max(100).default(50),
});

const RESULTS = ['valid', 'invalid', 'unknown'] as const;
const DETAILS = ['identified', 'similar', 'not_identified', 'deregistered', 'revoked', 'not_processed'] as const;
const SOURCES = ['aeat_census', 'cache'] as const;

export const taxIdAnswer = Joi.object({
  nif: text.required(),
  result: Joi.string()
    .valid(...RESULTS)
    .required()
    .description('`unknown`: the census did not answer now (ask again later); never kept, never blocking.'),
  detail: Joi.string()
    .valid(...DETAILS)
    .required(),
  census_name: text.description('The name the census holds, when `detail` is `similar`.'),
  source: Joi.string()
    .valid(...SOURCES)
    .required(),
  checked_at: timestamp.required().description('When the census gave this answer.'),
});

export const taxIdCheckResponse = envelope(Joi.alternatives().try(taxIdAnswer, Joi.array().items(taxIdAnswer)));

export const evidenceResponse = envelope(
  Joi.array().items(
    Joi.object({
      tax_id: text.required(),
      result: Joi.string()
        .valid(...RESULTS)
        .required(),
      detail: Joi.string()
        .valid(...DETAILS)
        .required(),
      source: Joi.string()
        .valid(...SOURCES)
        .required(),
      request_digest: text.required().description('SHA-256 (hex) of the request sent to the census that gave the answer.'),
      checked_at: timestamp.required(),
    }),
  ),
);
