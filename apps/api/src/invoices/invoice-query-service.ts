import type { Db } from '@vf/db';
import { chainRecordStore, invoiceStore, submissionHistoryStore, type InvoiceDetail, type InvoiceSummary, type SubmissionRow } from '@vf/db/src/stores';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { pageStart, toPage, type Page } from '../shared/page-query';
import { CORRECTIVE_TYPES, NORMAL_TYPES, type InvoiceListQuery } from './invoice-list-schema';
import { recordXml } from './record-xml';

export type InvoiceQueryService = ReturnType<typeof createInvoiceQueryService>;

const notFound = () => new ApiError('invoice_not_found', 'No invoice with this id in your account.');

/** invoice_type and kind both narrow the types; together they intersect. */
function typesOf(query: InvoiceListQuery): string[] | undefined {
  const byKind = query.kind === 'normal' ? NORMAL_TYPES : query.kind === 'corrective' ? CORRECTIVE_TYPES : undefined;
  if (!byKind) return query.invoice_type;
  return query.invoice_type ? query.invoice_type.filter((t) => byKind.includes(t)) : byKind;
}

export function createInvoiceQueryService(deps: { db: Db }) {
  const { db } = deps;

  async function find(accountId: string, id: string): Promise<InvoiceDetail> {
    const detail = isUuid(id) ? await invoiceStore.find(db, accountId, id) : undefined;
    if (!detail) throw notFound();
    return detail;
  }

  return {
    async list(accountId: string, query: InvoiceListQuery): Promise<Page<InvoiceSummary>> {
      const after = pageStart(query);
      const invoiceTypes = typesOf(query);
      if (invoiceTypes?.length === 0) return { items: [], nextCursor: null };
      const rows = await invoiceStore.list(
        db,
        accountId,
        {
          taxpayerId: query.taxpayer_id,
          statuses: query.status,
          invoiceTypes,
          dateFrom: query.date_from,
          dateTo: query.date_to,
          numberContains: query.q,
        },
        after,
        query.limit + 1,
      );
      return toPage(rows, query.limit);
    },

    get: find,

    /** The XML of one record of the invoice: as sent, or as it will be sent. */
    async recordXml(accountId: string, id: string, recordId: string): Promise<string> {
      const found = isUuid(id) && isUuid(recordId) ? await chainRecordStore.find(db, accountId, id, recordId) : undefined;
      if (!found) {
        if (isUuid(id) && (await invoiceStore.isOwnedBy(db, accountId, id))) {
          throw new ApiError('record_not_found', 'This invoice has no record with this id; see records in GET /api/v1/invoices/{id}.');
        }
        throw notFound();
      }
      return recordXml(found);
    },

    async submissions(accountId: string, id: string): Promise<SubmissionRow[]> {
      if (!isUuid(id) || !(await invoiceStore.isOwnedBy(db, accountId, id))) throw notFound();
      return submissionHistoryStore.forInvoice(db, id);
    },
  };
}
