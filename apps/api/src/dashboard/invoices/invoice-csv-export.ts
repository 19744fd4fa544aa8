import { once } from 'node:events';
import type { Response } from 'express';
import type { Db } from '@vf/db';
import type { InvoiceListQuery } from '../../invoices/invoice-list-schema';
import { formatInvoiceDate } from '../html/format';
import { statusLabel } from '../html/status-badge';
import { locale, t } from '../i18n/i18n';
import { invoiceRowsInBatches, type InvoiceListRow, type InvoiceSort } from './invoice-page-query';
import { partyId } from './invoice-content-facts';

const SEPARATOR = ';';
/** Excel opens a UTF-8 file as UTF-8 only when it starts with the byte-order mark. */
const BOM = '\uFEFF';

/**
 * One CSV field. Text a person typed (numbers, names) that starts like a formula is prefixed with an apostrophe, so a
 * spreadsheet shows it instead of running it; then fields holding the separator, quotes or line breaks are quoted.
 */
function field(value: string, isText = true): string {
  const safe = isText && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Spanish Excel reads "1234,50" as a number; no grouping, so every spreadsheet parses it the same way. */
function amount(value: string): string {
  return locale() === 'es' ? value.replace('.', ',') : value;
}

function line(values: string[]): string {
  return `${values.join(SEPARATOR)}\r\n`;
}

function rowLine(r: InvoiceListRow): string {
  const recipientId = r.recipient ? partyId(r.recipient) : '';
  return line([
    field(r.invoiceNumber),
    formatInvoiceDate(r.invoiceDate),
    r.invoiceType,
    r.issuerNif,
    field(r.recipient?.name ?? ''),
    field(recipientId),
    amount(r.totalTaxAmount),
    amount(r.totalAmount),
    field(statusLabel(r.authorityStatus), false),
    r.authorityCode === null ? '' : String(r.authorityCode),
  ]);
}

/**
 * Streams the list as CSV for Spanish Excel (`;`, UTF-8 BOM, CRLF), with the same filters and order as the page,
 * written a batch at a time and waiting whenever the client reads slower than the database answers.
 */
export async function streamInvoiceCsv(
  res: Response,
  db: Db,
  accountId: string,
  query: InvoiceListQuery,
  sort: InvoiceSort,
  fileDate: string,
): Promise<void> {
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${t('csv.filename')}-${fileDate}.csv"`);
  res.setHeader('Cache-Control', 'no-store');
  const keys = ['number', 'date', 'type', 'taxpayerNif', 'recipientName', 'recipientId', 'tax', 'total', 'status', 'code'];
  res.write(BOM + line(keys.map((k) => field(t(`csv.${k}`), false))));
  for await (const rows of invoiceRowsInBatches(db, accountId, query, sort)) {
    if (!res.write(rows.map(rowLine).join(''))) await once(res, 'drain');
  }
  res.end();
}
