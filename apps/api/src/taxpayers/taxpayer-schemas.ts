import Joi from 'joi';
import { envelope, environment, id, nullableText, text, timestamp, warning } from '../shared/answer-schema-parts';
import { text as textOf } from '../shared/text-schema';
import { spanishNif } from '../shared/nif-schema';
import type { renderTaxpayer } from './taxpayer-view';

export interface TaxpayerCreateRequest {
  nif: string;
  name: string;
  is_production: boolean;
  certificate_path?: string | null;
  certificate_p12_base64?: string | null;
  certificate_password?: string;
  /** VERI*FACTU (records sent as made) or NO VERI*FACTU (signed when made, kept), in the taxpayer's environment. */
  operating_mode?: 'verifactu' | 'no_verifactu';
}

export type TaxpayerUpdateRequest = Partial<TaxpayerCreateRequest>;

const certificatePath = Joi.string().min(1).max(4096).allow(null);
const certificateP12 = Joi.string().base64().min(4).allow(null);
const passwordRule = Joi.string().allow('').max(1024);
const sentFile = Joi.string().required();

// The password travels only with a certificate, and a certificate only with its password.
// Every branch is passwordRule or forbidden, so what passes is a string: joi's types cannot say that of a condition.
const certificatePassword = Joi.when('certificate_path', {
  is: sentFile,
  then: passwordRule.required(),
  otherwise: Joi.when('certificate_p12_base64', { is: sentFile, then: passwordRule.required(), otherwise: Joi.forbidden() }),
}).messages({
  'any.unknown': 'certificate_password is only accepted together with certificate_path or certificate_p12_base64',
}) as Joi.Schema as Joi.StringSchema;

const fields = {
  nif: spanishNif,
  name: textOf(120).verbatim(1100).min(1),
  is_production: Joi.boolean().strict(),
  certificate_path: certificatePath,
  certificate_p12_base64: certificateP12,
  certificate_password: certificatePassword,
  operating_mode: Joi.string().valid('verifactu', 'no_verifactu'),
};

export const taxpayerCreateSchema = Joi.object<TaxpayerCreateRequest, true>({
  ...fields,
  nif: fields.nif.required(),
  name: fields.name.required(),
  is_production: fields.is_production.default(false),
}).oxor('certificate_path', 'certificate_p12_base64');

/** PUT changes only the fields given; certificate_path (or certificate_p12_base64) null removes the certificate. */
export const taxpayerUpdateSchema = Joi.object<TaxpayerUpdateRequest, true>(fields)
  .min(1)
  .oxor('certificate_path', 'certificate_p12_base64');

// The answers.

const taxpayerKeys = {
  id: id.required(),
  nif: text.required(),
  name: text.required(),
  is_production: Joi.boolean().required(),
  environment: environment.required(),
  signing_mode: Joi.string().valid('own_certificate', 'social_collaborator').required(),
  has_certificate: Joi.boolean().required(),
  certificate_path: nullableText.required(),
  certificate: Joi.object({
    subject: nullableText.required(),
    nif: nullableText.required(),
    not_before: timestamp.required(),
    not_after: timestamp.required(),
    expired: Joi.boolean().required(),
    expires_in_days: Joi.number().integer().required(),
    source: text.required(),
  })
    .allow(null)
    .required(),
  chain: Joi.object({ total_records: Joi.number().integer().required(), last_hash: nullableText.required() }).required(),
  operating_mode: Joi.string()
    .valid('verifactu', 'no_verifactu')
    .required()
    .description('The mode in force now, in the current environment.'),
  verifactu_ends_on: Joi.string()
    .isoDate()
    .allow(null)
    .required()
    .description('FechaFinVeriFactu: leaving VERI*FACTU declared, NO VERI*FACTU from the next day.'),
  integrity_alarm: Joi.boolean().required().description('An anomaly was found in the chain and integrity is not restored yet.'),
  created_at: timestamp.required(),
  updated_at: timestamp.required(),
};
export const taxpayer = Joi.object<ReturnType<typeof renderTaxpayer>, true>(taxpayerKeys);
export const savedTaxpayerResponse = envelope(
  Joi.object({
    ...taxpayerKeys,
    warnings: Joi.array().items(warning).required(),
  }),
);
