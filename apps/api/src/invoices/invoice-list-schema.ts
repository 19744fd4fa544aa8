import Joi from 'joi';
import {
  AUTHORITY_STATUSES as STATUSES,
  CORRECTIVE_INVOICE_TYPES,
  isValidIsoDate,
  NORMAL_INVOICE_TYPES,
  type AuthorityStatus,
} from '@vf/core';
import { INVOICE_SORTS, type InvoiceSort } from '@vf/db';
import { spanishNif } from '../shared/nif-schema';
import { pageQueryFields, type PageQuery } from '../shared/page-query';

export const AUTHORITY_STATUSES: AuthorityStatus[] = [...STATUSES];
export const NORMAL_TYPES: string[] = [...NORMAL_INVOICE_TYPES];
export const CORRECTIVE_TYPES: string[] = [...CORRECTIVE_INVOICE_TYPES];

/** The filters shared by the list and the export. */
export interface InvoiceFilterQuery {
  taxpayer_id?: string;
  status?: AuthorityStatus[];
  invoice_type?: string[];
  kind?: 'normal' | 'corrective';
  date_from?: string;
  date_to?: string;
  recipient_nif?: string;
  number_prefix?: string;
  q?: string;
  sort: InvoiceSort;
}

export interface InvoiceListQuery extends InvoiceFilterQuery, PageQuery {}

export interface InvoiceExportQuery extends InvoiceFilterQuery {
  format: 'csv';
  decimal: 'point' | 'comma';
}

/** "a,b" -> ["a","b"], each from the allowed list. */
function commaList(allowed: readonly string[]) {
  return Joi.string()
    .max(200)
    .custom((value: string, helpers) => {
      const items = value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = items.filter((s) => !allowed.includes(s));
      if (items.length === 0 || unknown.length > 0) return helpers.error('vf.invalid_value', { allowed: allowed.join(', ') });
      return [...new Set(items)];
    })
    .messages({ 'vf.invalid_value': '{#label} must be a comma-separated list of: {#allowed}' });
}

// A real calendar day: PostgreSQL refuses 2025-02-30 outright, so the shape alone is not enough.
const isoDate = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .custom((value: string, helpers) => (isValidIsoDate(value) ? value : helpers.error('vf.invalid_format')))
  .messages({ 'string.pattern.base': '{#label} must be a date YYYY-MM-DD', 'vf.invalid_format': '{#label} must be a date YYYY-MM-DD' });

const filterFields = {
  taxpayer_id: Joi.string().guid().description('Only this taxpayer’s invoices.'),
  status: commaList(AUTHORITY_STATUSES).description(
    `Comma-separated authority statuses of the current record: ${AUTHORITY_STATUSES.join(', ')}.`,
  ),
  invoice_type: commaList([...NORMAL_TYPES, ...CORRECTIVE_TYPES]).description(
    `Comma-separated invoice types: ${[...NORMAL_TYPES, ...CORRECTIVE_TYPES].join(', ')}.`,
  ),
  kind: Joi.string().valid('normal', 'corrective').description('normal (F1-F3) or corrective (R1-R5); intersects with invoice_type.'),
  date_from: isoDate.description('Invoice date on or after (YYYY-MM-DD).'),
  date_to: isoDate.description('Invoice date on or before (YYYY-MM-DD).'),
  recipient_nif: spanishNif.description('The recipient’s Spanish NIF (normalised before comparing).'),
  number_prefix: Joi.string().min(1).max(60).description('Invoice numbers starting with this text (case-sensitive).'),
  q: Joi.string().trim().min(1).max(60).description('Invoice numbers containing this text (case-insensitive).'),
  sort: Joi.string()
    .valid(...INVOICE_SORTS)
    .default('-created_at')
    .description(
      'Order of the rows; "-" means descending. Invoices of one date keep the order they were registered in; other equal values are ordered by the invoice id.',
    ),
};

export const invoiceListSchema = Joi.object<InvoiceListQuery, true>({ ...filterFields, ...pageQueryFields });

export const invoiceExportSchema = Joi.object<InvoiceExportQuery, true>({
  ...filterFields,
  format: Joi.string().valid('csv').default('csv').description('The only format: CSV for spreadsheets.'),
  decimal: Joi.string().valid('point', 'comma').default('point').description('Decimal separator of amounts; comma suits a Spanish Excel.'),
});
