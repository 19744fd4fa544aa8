import type { Db } from '@vf/db';
import {
  chainRecordStore,
  invoiceLinkStore,
  invoiceListStore,
  invoiceStateStore,
  invoiceStore,
  submissionHistoryStore,
  type ChainRecordWithMessage,
  type InvoiceDetail,
  type InvoiceLink,
  type InvoiceReferenceJson,
  type InvoiceStatusRow,
  type InvoiceListFilters,
  type InvoiceListRow,
  type SubmissionRow,
} from '@vf/db';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import type { Page } from '../shared/page-query';
import { decodeInvoiceCursor, encodeInvoiceCursor } from './invoice-cursor';
import { CORRECTIVE_TYPES, NORMAL_TYPES, type InvoiceFilterQuery, type InvoiceListQuery } from './invoice-list-schema';
import { recordXml } from './record-xml';

export type InvoiceQueryService = ReturnType<typeof createInvoiceQueryService>;

const notFound = () => new ApiError('invoice_not_found', 'No invoice with this id in your account.');

/** invoice_type and kind both narrow the types; together they intersect. */
function typesOf(query: InvoiceFilterQuery): string[] | undefined {
  const byKind = query.kind === 'normal' ? NORMAL_TYPES : query.kind === 'corrective' ? CORRECTIVE_TYPES : undefined;
  if (!byKind) return query.invoice_type;
  return query.invoice_type ? query.invoice_type.filter((t) => byKind.includes(t)) : byKind;
}

/** The store's filters for a parsed query; undefined when they cannot match anything (kind and types disjoint). */
export function listFilters(query: InvoiceFilterQuery): InvoiceListFilters | undefined {
  const invoiceTypes = typesOf(query);
  if (invoiceTypes?.length === 0) return undefined;
  return {
    taxpayerId: query.taxpayer_id,
    statuses: query.status,
    invoiceTypes,
    dateFrom: query.date_from,
    dateTo: query.date_to,
    recipientNif: query.recipient_nif,
    numberPrefix: query.number_prefix,
    numberContains: query.q,
  };
}

/** A page of the list, and how many invoices match the filters in all. */
export interface InvoicePage extends Page<InvoiceListRow> {
  total: number;
  /** False when `total` is an estimate (past EXACT_TOTAL_LIMIT matching invoices). */
  totalExact: boolean;
}

/** A numbered page, for people (a client pages with a cursor): its rows and how many invoices match in all. */
export interface NumberedInvoicePage {
  rows: InvoiceListRow[];
  total: number;
  totalExact: boolean;
}

/** A page of the list after the query's cursor, with the cursor of the next one. */
async function listPage(db: Db, accountId: string, query: InvoiceListQuery): Promise<InvoicePage> {
  const after = query.cursor === undefined ? undefined : decodeInvoiceCursor(query.cursor, query.sort);
  if (query.cursor !== undefined && !after) {
    throw ApiError.validation([{ field: 'cursor', code: 'invalid_format', message: 'cursor is not one this API returned for this sort' }]);
  }
  const filters = listFilters(query);
  if (!filters) return { items: [], nextCursor: null, total: 0, totalExact: true };
  const [rows, { total, exact }] = await Promise.all([
    invoiceListStore.page(db, accountId, filters, query.sort, after && { after }, query.limit + 1),
    invoiceListStore.count(db, accountId, filters),
  ]);
  const items = rows.slice(0, query.limit);
  const last = items[items.length - 1];
  const nextCursor = rows.length > query.limit ? encodeInvoiceCursor({ sort: query.sort, value: last.sortValue, id: last.id }) : null;
  return { items, nextCursor, total, totalExact: exact };
}

async function numberedPage(
  db: Db,
  accountId: string,
  query: InvoiceFilterQuery,
  page: number,
  pageSize: number,
): Promise<NumberedInvoicePage> {
  const filters = listFilters(query);
  if (!filters) return { rows: [], total: 0, totalExact: true };
  const [rows, { total, exact }] = await Promise.all([
    invoiceListStore.page(db, accountId, filters, query.sort, { offset: (page - 1) * pageSize }, pageSize),
    invoiceListStore.count(db, accountId, filters),
  ]);
  return { rows, total, totalExact: exact };
}

export function createInvoiceQueryService(deps: { db: Db }) {
  const { db } = deps;

  async function find(accountId: string, id: string): Promise<InvoiceDetail> {
    const detail = isUuid(id) ? await invoiceStore.find(db, accountId, id) : undefined;
    if (!detail) throw notFound();
    return detail;
  }

  /** One record of the account's invoice, with its previous record, its signed bytes and its last message. */
  async function findRecord(accountId: string, id: string, recordId: string): Promise<ChainRecordWithMessage> {
    const found = isUuid(id) && isUuid(recordId) ? await chainRecordStore.find(db, accountId, id, recordId) : undefined;
    if (found) return found;
    if (isUuid(id) && (await invoiceStore.isOwnedBy(db, accountId, id))) {
      throw new ApiError('record_not_found', 'This invoice has no record with this id; see records in GET /api/v1/invoices/{id}.');
    }
    throw notFound();
  }

  return {
    list: (accountId: string, query: InvoiceListQuery): Promise<InvoicePage> => listPage(db, accountId, query),

    /** A numbered page of the list (1 = the first `pageSize` rows) and how many invoices match in all. */
    numberedPage: (accountId: string, query: InvoiceFilterQuery, page: number, pageSize: number): Promise<NumberedInvoicePage> =>
      numberedPage(db, accountId, query, page, pageSize),

    get: find,

    record: findRecord,

    /** The XML of one record of the invoice: as sent, or as it will be sent. */
    async recordXml(accountId: string, id: string, recordId: string): Promise<string> {
      return recordXml(await findRecord(accountId, id, recordId));
    },

    async submissions(accountId: string, id: string): Promise<SubmissionRow[]> {
      if (!isUuid(id) || !(await invoiceStore.isOwnedBy(db, accountId, id))) throw notFound();
      return submissionHistoryStore.forInvoice(db, id);
    },

    /** The current status of each of these invoices of the account; unknown and foreign ids are simply absent. */
    statuses(accountId: string, ids: string[]): Promise<InvoiceStatusRow[]> {
      return invoiceStateStore.statuses(db, accountId, ids.filter(isUuid));
    },

    /** The records chained just before and after this one (a record of the account's invoice), as invoices. */
    neighbours(accountId: string, record: { id: string; previousInvoiceId: string | null }) {
      return invoiceLinkStore.neighbours(db, accountId, record);
    },

    /** The invoices a corrective invoice corrects, and the corrective invoices that correct this one. */
    correctionLinks(
      accountId: string,
      invoice: { taxpayerId: string; invoiceNumber: string; invoiceDate: string; correctedInvoices: InvoiceReferenceJson[] },
    ): Promise<{ corrects: (InvoiceLink & { invoiceDate: string })[]; correctedBy: InvoiceLink[] }> {
      return invoiceLinkStore.correctionLinks(db, accountId, invoice);
    },
  };
}
