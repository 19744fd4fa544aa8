import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { Db } from '@vf/db';
import type { InvoiceCursor } from './invoice-cursor';
import type { InvoiceFilterQuery } from './invoice-list-schema';
import { invoiceListing, type InvoiceListRow } from './invoice-listing';
import { listFilters } from './invoice-query-service';

export type InvoiceExportService = ReturnType<typeof createInvoiceExportService>;

export interface InvoiceExportOptions {
  /** Decimal separator of amounts: "comma" for a Spanish spreadsheet (12,10), "point" otherwise (12.10). */
  decimal?: 'point' | 'comma';
  /** Header labels: the API's field names (default) or Spanish column titles for people. */
  headers?: 'fields' | 'es';
  /** Rows read per query: the most the export holds in memory at once. */
  batchSize?: number;
}

const COLUMNS: { key: string; es: string; value: (r: InvoiceListRow, amount: (a: string | null) => string) => string | number | null }[] = [
  { key: 'invoice_number', es: 'Número', value: (r) => r.invoiceNumber },
  { key: 'invoice_date', es: 'Fecha', value: (r) => r.invoiceDate },
  { key: 'invoice_type', es: 'Tipo', value: (r) => r.invoiceType },
  { key: 'recipient_name', es: 'Destinatario', value: (r) => r.recipientName },
  { key: 'recipient_nif', es: 'NIF destinatario', value: (r) => r.recipientNif },
  { key: 'base_amount', es: 'Base imponible', value: (r, amount) => amount(r.baseAmount) },
  { key: 'total_tax_amount', es: 'Cuota', value: (r, amount) => amount(r.totalTaxAmount) },
  { key: 'total_amount', es: 'Total', value: (r, amount) => amount(r.totalAmount) },
  { key: 'authority_status', es: 'Estado', value: (r) => r.authorityStatus },
  { key: 'authority_code', es: 'Código AEAT', value: (r) => r.authorityCode },
  { key: 'authority_csv', es: 'CSV AEAT', value: (r) => r.authorityCsv },
  { key: 'qr_url', es: 'URL QR', value: (r) => r.qrUrl },
  { key: 'created_at', es: 'Registrada', value: (r) => r.createdAt.toISOString() },
];

/** Invoices as CSV for spreadsheets, read in keyset batches and written as the destination drains. */
export function createInvoiceExportService(deps: { db: Db }) {
  const { db } = deps;

  return {
    /**
     * Writes every invoice of the account matching `filters` to `out` (ended when done): UTF-8 with a BOM,
     * `;` separated, CRLF, quoted where needed. Resolves when `out` has everything; rejects (destroying `out`)
     * if a read fails midway. A failure of the first read rejects before anything is written.
     */
    async exportInvoicesCsv(accountId: string, filters: InvoiceFilterQuery, options: InvoiceExportOptions, out: Writable): Promise<void> {
      const batchSize = options.batchSize ?? 500;
      const amount = (a: string | null) => (a === null ? '' : options.decimal === 'comma' ? a.replace('.', ',') : a);
      const storeFilters = listFilters(filters);
      const read = (after: InvoiceCursor | undefined) =>
        storeFilters ? invoiceListing.page(db, accountId, storeFilters, filters.sort, after, batchSize) : Promise.resolve([]);

      const first = await read(undefined);
      async function* records() {
        for (let batch = first; ;) {
          for (const row of batch) yield COLUMNS.map((c) => c.value(row, amount));
          if (batch.length < batchSize) return;
          const last = batch[batch.length - 1];
          batch = await read({ sort: filters.sort, value: last.sortValue, id: last.id });
        }
      }
      const header = COLUMNS.map((c) => (options.headers === 'es' ? c.es : c.key));
      await pipeline(
        Readable.from(records()),
        stringify({ delimiter: ';', bom: true, record_delimiter: 'windows', header: true, columns: header }),
        out,
      );
    },
  };
}
