import type { DbOrTx } from '../client';
import {
  invoiceListStore,
  type InvoiceListFilters,
  type InvoiceListKey,
  type InvoiceListRow,
  type InvoiceSort,
} from './invoice-list-store';

/** Rows read per query when the caller does not say: the most an export holds in memory at once. */
export const EXPORT_BATCH_SIZE = 500;

/**
 * Every invoice of a list, in the list's order, a batch at a time: the exports (the API's and the dashboard's) read
 * through here, each batch a keyset page of the list store, read only when the previous one has been consumed, so
 * an export of any size holds one batch in memory and never skips or repeats a row.
 */
export const invoiceExportStore = {
  async *batches(
    db: DbOrTx,
    accountId: string,
    filters: InvoiceListFilters,
    sort: InvoiceSort,
    batchSize = EXPORT_BATCH_SIZE,
  ): AsyncGenerator<InvoiceListRow[]> {
    let after: InvoiceListKey | undefined;
    for (;;) {
      const batch = await invoiceListStore.page(db, accountId, filters, sort, after && { after }, batchSize);
      yield batch;
      if (batch.length < batchSize) return;
      const last = batch[batch.length - 1];
      after = { value: last.sortValue, id: last.id };
    }
  },
};
