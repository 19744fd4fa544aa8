import type { Writable } from 'node:stream';
import { invoiceExportStore, type Db, type InvoiceListRow } from '@vf/db';
import type { CsvColumn } from '@vf/contract';
import { writeCsv } from '../csv/write-csv';
import type { InvoiceFilterQuery } from './invoice-list-schema';
import { listFilters } from './invoice-query-service';

export type InvoiceExportService = ReturnType<typeof createInvoiceExportService>;

export interface InvoiceExportOptions {
  /** Decimal separator of amounts: "comma" for a Spanish spreadsheet (12,10), "point" otherwise (12.10). */
  decimal?: 'point' | 'comma';
  /** Rows read per query: the most the export holds in memory at once. */
  batchSize?: number;
}

type Amount = (a: string | null) => string | null;

const COLUMNS: { key: string; number?: boolean; value: (r: InvoiceListRow, amount: Amount) => string | number | null }[] = [
  { key: 'invoice_number', value: (r) => r.invoiceNumber },
  { key: 'invoice_date', value: (r) => r.invoiceDate },
  { key: 'invoice_type', value: (r) => r.invoiceType },
  { key: 'recipient_name', value: (r) => r.recipientName },
  { key: 'recipient_nif', value: (r) => r.recipientNif },
  { key: 'base_amount', number: true, value: (r, amount) => amount(r.baseAmount) },
  { key: 'total_tax_amount', number: true, value: (r, amount) => amount(r.totalTaxAmount) },
  { key: 'total_amount', number: true, value: (r, amount) => amount(r.totalAmount) },
  { key: 'authority_status', value: (r) => r.authorityStatus },
  { key: 'authority_code', number: true, value: (r) => r.authorityCode },
  { key: 'authority_csv', value: (r) => r.authorityCsv },
  { key: 'qr_url', value: (r) => r.qrUrl },
  { key: 'created_at', value: (r) => r.createdAt.toISOString() },
];

/** Invoices as CSV for spreadsheets, read in keyset batches and written as the destination drains. */
export function createInvoiceExportService(deps: { db: Db }) {
  const { db } = deps;

  /**
   * Writes every invoice of the account matching `filters`, in their `sort` order, to `out` (ended when done) with
   * the service's one CSV writer, in these columns. `begin` runs once the first batch is read, before the first
   * byte; a failure before then rejects with `out` untouched.
   */
  async function writeInvoices(
    columns: CsvColumn<InvoiceListRow>[],
    accountId: string,
    filters: InvoiceFilterQuery,
    out: Writable,
    begin?: () => void,
    batchSize?: number,
  ): Promise<void> {
    const storeFilters = listFilters(filters);
    async function* none(): AsyncGenerator<InvoiceListRow[]> {}
    const batches = storeFilters ? invoiceExportStore.batches(db, accountId, storeFilters, filters.sort, batchSize) : none();
    await writeCsv(columns, batches, out, begin);
  }

  return {
    writeInvoices,

    /** The API's export: its field names as headers, amounts with the decimal asked for. */
    async exportInvoicesCsv(
      accountId: string,
      filters: InvoiceFilterQuery,
      options: InvoiceExportOptions,
      out: Writable,
      begin?: () => void,
    ): Promise<void> {
      const amount: Amount = (a) => (a === null ? null : options.decimal === 'comma' ? a.replace('.', ',') : a);
      const columns: CsvColumn<InvoiceListRow>[] = COLUMNS.map((c) => ({
        header: c.key,
        number: c.number,
        value: (r) => c.value(r, amount),
      }));
      await writeInvoices(columns, accountId, filters, out, begin, options.batchSize);
    },
  };
}
