import { isValidIsoDate } from '@vf/core';
import { isUuid } from '../http/is-uuid';
import { isTimestamptz } from '../shared/page-cursor';
import { sortColumnOf, type InvoiceSort, type InvoiceSortColumn } from '@vf/db';

/** Where a page of invoices ended, in the order it was listed by: the sort, its column's value there, and the id. */
export interface InvoiceCursor {
  sort: InvoiceSort;
  value: string;
  id: string;
}

// The text forms PostgreSQL gives for each sort column; a forged cursor must not reach SQL as garbage.
const VALUE_CHECKS: Record<InvoiceSortColumn, (value: string) => boolean> = {
  created_at: isTimestamptz,
  invoice_date: isValidIsoDate,
  // eslint-disable-next-line no-control-regex -- a NUL would be refused by PostgreSQL
  invoice_number: (value) => /^[^\u0000]{1,60}$/.test(value),
  // numeric(14, 2)
  total_amount: (value) => /^-?\d{1,12}\.\d{2}$/.test(value),
};

export function encodeInvoiceCursor(cursor: InvoiceCursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.value, cursor.id]), 'utf8').toString('base64url');
}

/** The cursor, when it is one this API handed out for the same sort; undefined otherwise. */
export function decodeInvoiceCursor(text: string, sort: InvoiceSort): InvoiceCursor | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 3) return undefined;
    const [givenSort, value, id] = parsed;
    if (givenSort !== sort || typeof value !== 'string' || !isUuid(id)) return undefined;
    if (!VALUE_CHECKS[sortColumnOf(sort)](value)) return undefined;
    return { sort, value, id };
  } catch {
    return undefined;
  }
}
