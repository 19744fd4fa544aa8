import { explainCause, inPlainWords } from '@vf/core';
import type { Db } from '@vf/db';
import { dashboardInvoiceStore } from '@vf/db';
import { isUuid } from '../../http/is-uuid';
import type { InvoiceListQuery } from '../../invoices/invoice-list-schema';
import type { Response } from 'express';
import { streamInvoiceCsv } from './invoice-csv-export';
import { invoicePage, type InvoiceSort } from './invoice-page-query';
import type { InvoiceQueryService } from '../../invoices/invoice-query-service';
import type { TaxpayerService } from '../../taxpayers/taxpayer-service';
import { statusLabel } from '../html/status-badge';
import { locale } from '../i18n/i18n';
import type { InvoiceDetailView } from './invoice-detail-page';

export type DashboardInvoiceService = ReturnType<typeof createDashboardInvoiceService>;

/** Most ids one status poll may ask about: a page of the list. */
const MAX_POLLED_IDS = 100;

/** Lists and details through the API's own query service; only what the pages add is read here. */
export function createDashboardInvoiceService(deps: { db: Db; invoices: InvoiceQueryService; taxpayers: TaxpayerService }) {
  const { db } = deps;
  return {
    /** A numbered page of the list, the total, and for corrective invoices the invoices each one corrects. */
    async page(accountId: string, query: InvoiceListQuery, sort: InvoiceSort, page: number, pageSize: number) {
      const found = await invoicePage(db, accountId, query, sort, page, pageSize);
      const corrected =
        query.kind === 'corrective'
          ? await dashboardInvoiceStore.correctedInvoicesOf(
              db,
              accountId,
              found.rows.map((i) => i.id),
            )
          : new Map();
      return { ...found, corrected };
    },

    /** The list's invoices as a CSV file, streamed to `res` in batches. */
    exportCsv(res: Response, accountId: string, query: InvoiceListQuery, sort: InvoiceSort, today: string): Promise<void> {
      return streamInvoiceCsv(res, db, accountId, query, sort, today);
    },

    async detail(accountId: string, id: string): Promise<InvoiceDetailView> {
      const detail = await deps.invoices.get(accountId, id);
      const [submissions, taxpayer, neighbours, links] = await Promise.all([
        deps.invoices.submissions(accountId, id),
        deps.taxpayers.get(accountId, detail.invoice.taxpayerId),
        dashboardInvoiceStore.neighbours(db, accountId, detail.invoice),
        dashboardInvoiceStore.correctionLinks(db, accountId, detail.invoice),
      ]);
      return { detail, submissions, taxpayerName: taxpayer.name, neighbours, links };
    },

    /** What the polling script needs to update badges in place; unknown and foreign ids are simply absent. */
    async statuses(accountId: string, ids: string[]) {
      const rows = await dashboardInvoiceStore.statuses(db, accountId, ids.filter(isUuid).slice(0, MAX_POLLED_IDS));
      // A code or an error is said in plain words in the reader's language, as on the page, not with the authority's raw text.
      const messageOf = (r: (typeof rows)[number]) => {
        // A code, an error or a cause of the service's (a number taken by another record) is said in plain words.
        const text =
          r.code !== null || r.status === 'error' || r.errorCause ? explainCause({ code: r.code, cause: r.errorCause }) : undefined;
        return text ? inPlainWords(text, locale()) : r.message;
      };
      return rows.map((r) => ({
        id: r.id,
        invoice_number: r.invoiceNumber,
        status: r.status,
        label: statusLabel(r.status),
        code: r.code,
        message: messageOf(r),
      }));
    },
  };
}
