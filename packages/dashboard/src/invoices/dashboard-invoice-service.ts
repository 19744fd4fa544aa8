import type { Response } from 'express';
import { explainCause, inPlainWords } from '@vf/core';
import type { ApiServices, ApiViews, InvoiceFilters } from '../dashboard-api';
import { statusLabel } from '../html/status-badge';
import { locale } from '../i18n/i18n';
import { streamInvoiceCsv } from './invoice-csv-export';
import type { InvoiceDetailView } from './invoice-detail-page';
import { SORT_OPTIONS, type SortOption } from './invoice-sort-options';

export type DashboardInvoiceService = ReturnType<typeof createDashboardInvoiceService>;

/** Most ids one status poll may ask about: a page of the list. */
const MAX_POLLED_IDS = 100;

/** Lists, exports and details through the API's own services; only what the pages add is put together here. */
export function createDashboardInvoiceService(deps: {
  invoices: ApiServices['invoices'];
  invoiceExport: ApiServices['invoiceExport'];
  taxpayers: ApiServices['taxpayers'];
  views: Pick<ApiViews, 'isUuid'>;
}) {
  return {
    /** A numbered page of the list in the order the page's links name, and how many invoices match in all. */
    page(accountId: string, query: InvoiceFilters, sort: SortOption, page: number, pageSize: number) {
      return deps.invoices.numberedPage(accountId, { ...query, sort: SORT_OPTIONS[sort] }, page, pageSize);
    },

    /** The list's invoices as a CSV file, streamed to `res` in batches. */
    exportCsv(res: Response, accountId: string, query: InvoiceFilters, sort: SortOption, today: string): Promise<void> {
      return streamInvoiceCsv(res, deps.invoiceExport, accountId, { ...query, sort: SORT_OPTIONS[sort] }, today);
    },

    async detail(accountId: string, id: string): Promise<InvoiceDetailView> {
      const detail = await deps.invoices.get(accountId, id);
      const [submissions, taxpayer, neighbours, links] = await Promise.all([
        deps.invoices.submissions(accountId, id),
        deps.taxpayers.get(accountId, detail.invoice.taxpayerId),
        deps.invoices.neighbours(accountId, detail.invoice),
        deps.invoices.correctionLinks(accountId, detail.invoice),
      ]);
      return { detail, submissions, taxpayerName: taxpayer.name, neighbours, links };
    },

    /** What the polling script needs to update badges in place; unknown and foreign ids are simply absent. */
    async statuses(accountId: string, ids: string[]) {
      const rows = await deps.invoices.statuses(accountId, ids.filter(deps.views.isUuid).slice(0, MAX_POLLED_IDS));
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
