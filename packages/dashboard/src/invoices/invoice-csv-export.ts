import type { Response } from 'express';
import type { InvoiceListRow } from '@vf/db';
import type { CsvColumn } from '@vf/contract';
import type { ApiServices, InvoiceFilters } from '../dashboard-api';
import { formatInvoiceDate } from '../html/format';
import { statusLabel } from '../html/status-badge';
import { locale, t } from '../i18n/i18n';
import { partyId } from './invoice-content-facts';

function recipientId(r: InvoiceListRow): string | null {
  return r.recipient ? partyId(r.recipient) : null;
}

/** The list's columns in the reader's language; Spanish Excel reads "1234,50" as a number (no grouping, so every spreadsheet agrees). */
function columns(): CsvColumn<InvoiceListRow>[] {
  const amount = locale() === 'es' ? (value: string) => value.replace('.', ',') : (value: string) => value;
  const column = (key: string, value: CsvColumn<InvoiceListRow>['value'], number = false) => ({ header: t(`csv.${key}`), value, number });
  return [
    column('number', (r) => r.invoiceNumber),
    column('date', (r) => formatInvoiceDate(r.invoiceDate)),
    column('type', (r) => r.invoiceType),
    column('taxpayerNif', (r) => r.issuerNif),
    column('recipientName', (r) => r.recipient?.name ?? null),
    column('recipientId', recipientId),
    column('tax', (r) => amount(r.totalTaxAmount), true),
    column('total', (r) => amount(r.totalAmount), true),
    column('status', (r) => statusLabel(r.authorityStatus)),
    column('code', (r) => r.authorityCode, true),
  ];
}

/**
 * Streams the list as CSV through the API's export (the service's one CSV writer, the list's read model), with the
 * same filters and order as the page, a batch at a time and waiting whenever the client reads slower than the
 * database answers.
 */
export async function streamInvoiceCsv(
  res: Response,
  exports: ApiServices['invoiceExport'],
  accountId: string,
  query: InvoiceFilters,
  fileDate: string,
): Promise<void> {
  const filename = `${t('csv.filename')}-${fileDate}.csv`;
  await exports.writeInvoices(columns(), accountId, query, res, () => {
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
    res.setHeader('Cache-Control', 'no-store');
  });
}
