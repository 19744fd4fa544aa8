import Joi from 'joi';
import { id, text, timestamp } from '../shared/answer-schema-parts';
import { spanishNif } from '../shared/nif-schema';
import { text as textOf } from '../shared/text-schema';
import { SYSTEM_CODE } from './system-code';
import type { renderSystem } from './system-view';

export interface SystemCreateRequest {
  vendor_name: string;
  vendor_nif: string;
  name: string;
  version: string;
  installation_number: string;
  only_supports_verifactu: boolean;
  system_code?: string;
  supports_multiple_taxpayers: boolean;
}

export type SystemUpdateRequest = Partial<SystemCreateRequest>;

// Lengths are those of the authority's SistemaInformatico elements, in characters as its schema counts them.
const fields = {
  vendor_name: textOf(120).verbatim(1100).min(1),
  vendor_nif: spanishNif,
  name: textOf(30).verbatim(1220).min(1),
  version: textOf(50).verbatim(1100).min(1),
  installation_number: textOf(100).verbatim(1100).min(1),
  only_supports_verifactu: Joi.boolean().strict(),
  system_code: Joi.string()
    .pattern(SYSTEM_CODE)
    .messages({ 'string.pattern.base': 'system_code must be exactly 2 characters: uppercase letters A-Z (not Ñ) or digits' }),
  supports_multiple_taxpayers: Joi.boolean().strict(),
};

export const systemCreateSchema = Joi.object<SystemCreateRequest, true>({
  ...fields,
  vendor_name: fields.vendor_name.required(),
  vendor_nif: fields.vendor_nif.required(),
  name: fields.name.required(),
  version: fields.version.required(),
  installation_number: fields.installation_number.required(),
  only_supports_verifactu: fields.only_supports_verifactu.default(true),
  supports_multiple_taxpayers: fields.supports_multiple_taxpayers.default(true),
});

export const systemUpdateSchema = Joi.object<SystemUpdateRequest, true>(fields).min(1);

/** A computer system, as every answer shows it. */
export const system = Joi.object<ReturnType<typeof renderSystem>, true>({
  id: id.required(),
  vendor_name: text.required(),
  vendor_nif: text.required(),
  name: text.required(),
  version: text.required(),
  installation_number: text.required(),
  only_supports_verifactu: Joi.boolean().required(),
  system_code: text.required(),
  supports_multiple_taxpayers: Joi.boolean().required(),
  sole_taxpayer_id: id.allow(null).required(),
  created_at: timestamp.required(),
  updated_at: timestamp.required(),
});
