import Joi from 'joi';
import { AUTHORITY_STATUSES as STATUSES, type AuthorityStatus } from '@vf/core';
import { pageQueryFields, type PageQuery } from '../shared/page-query';

export const AUTHORITY_STATUSES: AuthorityStatus[] = [...STATUSES];
export const NORMAL_TYPES = ['F1', 'F2', 'F3'];
export const CORRECTIVE_TYPES = ['R1', 'R2', 'R3', 'R4', 'R5'];

export interface InvoiceListQuery extends PageQuery {
  taxpayer_id?: string;
  status?: AuthorityStatus[];
  invoice_type?: string[];
  kind?: 'normal' | 'corrective';
  date_from?: string;
  date_to?: string;
  q?: string;
}

/** "a,b" -> ["a","b"], each from the allowed list. */
function commaList(allowed: readonly string[]) {
  return Joi.string()
    .max(200)
    .custom((value: string, helpers) => {
      const items = value.split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = items.filter((s) => !allowed.includes(s));
      if (items.length === 0 || unknown.length > 0) return helpers.error('vf.invalid_value', { allowed: allowed.join(', ') });
      return [...new Set(items)];
    })
    .messages({ 'vf.invalid_value': '{#label} must be a comma-separated list of: {#allowed}' });
}

const isoDate = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .messages({ 'string.pattern.base': '{#label} must be a date YYYY-MM-DD' });

export const invoiceListSchema = Joi.object<InvoiceListQuery>({
  taxpayer_id: Joi.string().guid(),
  status: commaList(AUTHORITY_STATUSES),
  invoice_type: commaList([...NORMAL_TYPES, ...CORRECTIVE_TYPES]),
  kind: Joi.string().valid('normal', 'corrective'),
  date_from: isoDate,
  date_to: isoDate,
  q: Joi.string().trim().min(1).max(60),
  ...pageQueryFields,
});
