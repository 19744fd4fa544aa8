import Joi from 'joi';
import { envelope, text, timestamp } from '../shared/answer-schema-parts';
import { spanishNif } from '../shared/nif-schema';
import { euVatNumber } from '../shared/vat-number-schema';

/** The most tax IDs answered in one synchronous request. */
export const MAX_SYNC_TAX_IDS = 100;
const ONE_DAY = 86_400;

export interface TaxIdCheckRequest {
  nif?: string;
  name?: string;
  vat_number?: string;
  tax_ids?: ({ nif: string; name: string } | { vat_number: string })[];
  max_age: number;
  taxpayer_id?: string;
}

export const taxIdName = Joi.string()
  .trim()
  .min(1)
  .max(120)
  .description('Nombre o razón social, as the census holds it (accents, case and spacing aside).');

export const maxAge = Joi.number()
  .integer()
  .min(0)
  .max(366 * ONE_DAY)
  .default(ONE_DAY)
  .description(
    'Seconds: a census answer the service already holds is used if it is not older than this (default one day; 0 always asks the census). VIES is asked each time.',
  );

export const taxIdCheckSchema = Joi.object<TaxIdCheckRequest, true>({
  nif: spanishNif,
  name: taxIdName,
  vat_number: euVatNumber,
  tax_ids: Joi.array()
    .items(
      Joi.alternatives().try(
        Joi.object({ nif: spanishNif.required(), name: taxIdName.required() }),
        Joi.object({ vat_number: euVatNumber.required() }),
      ),
    )
    .min(1)
    .max(MAX_SYNC_TAX_IDS),
  max_age: maxAge,
  taxpayer_id: Joi.string()
    .guid()
    .description(
      "A taxpayer of your account: census checks go out under its own certificate (the platform's otherwise), VIES checks under its VAT number (VIES then gives a consultation number).",
    ),
})
  .xor('nif', 'vat_number', 'tax_ids')
  .and('nif', 'name');

export const evidenceQuerySchema = Joi.object<{ tax_id?: string; limit: number }>({
  tax_id: Joi.alternatives().try(spanishNif, euVatNumber),
  limit: Joi.number().integer().min(1).max(100).default(50),
});

const RESULTS = ['valid', 'invalid', 'unknown'] as const;
const DETAILS = ['identified', 'similar', 'not_identified', 'deregistered', 'revoked', 'not_processed'] as const;
const SOURCES = ['aeat_census', 'cache', 'vies'] as const;

export const taxIdAnswer = Joi.object({
  nif: text.description('The Spanish NIF asked (census answers).'),
  vat_number: text.description('The EU VAT number asked, with its country code (VIES answers).'),
  result: Joi.string()
    .valid(...RESULTS)
    .required()
    .description('`unknown`: the census or VIES did not answer now (ask again later); never kept, never blocking.'),
  detail: Joi.string()
    .valid(...DETAILS)
    .required(),
  census_name: text.description('The name the census holds, when `detail` is `similar`.'),
  fault_code: text.description(
    "VIES's fault (`MS_UNAVAILABLE`, `TIMEOUT`, `SERVICE_UNAVAILABLE`, `MS_MAX_CONCURRENT_REQ`, `GLOBAL_MAX_CONCURRENT_REQ`: `unknown`; `INVALID_INPUT`: `invalid`).",
  ),
  request_identifier: text.description(
    "VIES's consultation number (when the check went under a requester's VAT number): keep it as evidence.",
  ),
  trader_name: text.description('The name the member state publishes for the VAT number, if any.'),
  source: Joi.string()
    .valid(...SOURCES)
    .required(),
  checked_at: timestamp.required().description('When the census or VIES gave this answer.'),
}).xor('nif', 'vat_number');

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
      request_digest: text.required().description('SHA-256 (hex) of the request sent to the census or VIES that gave the answer.'),
      request_identifier: text.description("VIES's consultation number, when it gave one."),
      fault_code: text.description("VIES's fault code, when it could not answer."),
      checked_at: timestamp.required(),
    }),
  ),
);
