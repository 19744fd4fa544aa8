import Joi from 'joi';
import { text } from '../shared/text-schema';
import { spanishNif } from '../shared/nif-schema';

export interface TaxpayerCreateRequest {
  nif: string;
  name: string;
  is_production: boolean;
  certificate_path?: string | null;
  certificate_p12_base64?: string | null;
  certificate_password?: string;
}

export type TaxpayerUpdateRequest = Partial<TaxpayerCreateRequest>;

const certificatePath = Joi.string().min(1).max(4096).allow(null);
const certificateP12 = Joi.string().base64().min(4).allow(null);
const passwordRule = Joi.string().allow('').max(1024);
const sentFile = Joi.string().required();

// The password travels only with a certificate, and a certificate only with its password.
const certificatePassword = Joi.when('certificate_path', {
  is: sentFile,
  then: passwordRule.required(),
  otherwise: Joi.when('certificate_p12_base64', { is: sentFile, then: passwordRule.required(), otherwise: Joi.forbidden() }),
}).messages({ 'any.unknown': 'certificate_password is only accepted together with certificate_path or certificate_p12_base64' });

const fields = {
  nif: spanishNif,
  name: text(120).trim().min(1),
  is_production: Joi.boolean().strict(),
  certificate_path: certificatePath,
  certificate_p12_base64: certificateP12,
  certificate_password: certificatePassword,
};

export const taxpayerCreateSchema = Joi.object<TaxpayerCreateRequest>({
  ...fields,
  nif: fields.nif.required(),
  name: fields.name.required(),
  is_production: fields.is_production.default(false),
}).oxor('certificate_path', 'certificate_p12_base64');

/** PUT changes only the fields given; certificate_path (or certificate_p12_base64) null removes the certificate. */
export const taxpayerUpdateSchema = Joi.object<TaxpayerUpdateRequest>(fields).min(1).oxor('certificate_path', 'certificate_p12_base64');
