import { and, asc, count, desc, eq, gte, ilike, inArray, lte, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { invoices, type AuthorityStatus, type Db, type RecipientJson } from '@vf/db';
import { CORRECTIVE_TYPES, NORMAL_TYPES, type InvoiceListQuery } from '../../invoices/invoice-list-schema';

export const SORTS = ['date_desc', 'date_asc', 'number_asc', 'number_desc', 'total_desc', 'total_asc'] as const;
export type InvoiceSort = (typeof SORTS)[number];

/** One row of the dashboard's lists: the invoice's current state with who it was for and its tax. */
export interface InvoiceListRow {
  id: string;
  taxpayerId: string;
  issuerNif: string;
  invoiceNumber: string;
  invoiceDate: string;
  invoiceType: string;
  recipient: RecipientJson | null;
  totalTaxAmount: string;
  totalAmount: string;
  authorityStatus: AuthorityStatus;
  authorityCode: number | null;
}

// `invoices` is the invoice (its first record, whose id is the invoice's); `cur` its latest record, its current state.
const cur = alias(invoices, 'cur');

const ORDER: Record<InvoiceSort, SQL[]> = {
  date_desc: [desc(invoices.invoiceDate), desc(invoices.createdAt), desc(invoices.id)],
  date_asc: [asc(invoices.invoiceDate), asc(invoices.createdAt), asc(invoices.id)],
  number_asc: [asc(invoices.invoiceNumber), asc(invoices.id)],
  number_desc: [desc(invoices.invoiceNumber), desc(invoices.id)],
  total_desc: [desc(cur.totalAmount), desc(invoices.id)],
  total_asc: [asc(cur.totalAmount), asc(invoices.id)],
};

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The same filters as GET /api/v1/invoices (the query the API validates), as SQL; undefined when nothing can match. */
function whereOf(accountId: string, query: InvoiceListQuery): SQL | undefined {
  const byKind = query.kind === 'corrective' ? CORRECTIVE_TYPES : query.kind === 'normal' ? NORMAL_TYPES : undefined;
  const types = byKind ? (query.invoice_type ?? byKind).filter((t) => byKind.includes(t)) : query.invoice_type;
  if (types?.length === 0) return undefined;
  const where: SQL[] = [eq(invoices.accountId, accountId)];
  if (query.taxpayer_id) where.push(eq(invoices.taxpayerId, query.taxpayer_id));
  if (query.status?.length) where.push(inArray(cur.authorityStatus, query.status));
  if (types?.length) where.push(inArray(cur.invoiceType, types));
  if (query.date_from) where.push(gte(invoices.invoiceDate, query.date_from));
  if (query.date_to) where.push(lte(invoices.invoiceDate, query.date_to));
  if (query.q) where.push(ilike(invoices.invoiceNumber, `%${escapeLike(query.q)}%`));
  return and(...where);
}

function select(db: Db, where: SQL, sort: InvoiceSort) {
  return db
    .select({
      id: invoices.id,
      taxpayerId: invoices.taxpayerId,
      issuerNif: invoices.issuerNif,
      invoiceNumber: invoices.invoiceNumber,
      invoiceDate: invoices.invoiceDate,
      invoiceType: cur.invoiceType,
      recipient: cur.recipient,
      totalTaxAmount: cur.totalTaxAmount,
      totalAmount: cur.totalAmount,
      authorityStatus: cur.authorityStatus,
      authorityCode: cur.authorityCode,
    })
    .from(invoices)
    .innerJoin(cur, eq(cur.id, invoices.currentRecordId))
    .where(where)
    .orderBy(...ORDER[sort]);
}

/**
 * The dashboard's numbered pages: one page of rows and how many invoices match in all. (The API pages with a
 * cursor; a person wants page numbers and a total.)
 */
export async function invoicePage(db: Db, accountId: string, query: InvoiceListQuery, sort: InvoiceSort, page: number, pageSize: number) {
  const where = whereOf(accountId, query);
  if (!where) return { rows: [] as InvoiceListRow[], total: 0 };
  const [rows, [{ n }]] = await Promise.all([
    select(db, where, sort)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(invoices).innerJoin(cur, eq(cur.id, invoices.currentRecordId)).where(where),
  ]);
  return { rows: rows as InvoiceListRow[], total: Number(n) };
}

/** Every matching row, in order, a batch at a time: the export never holds the whole list in memory. */
export async function* invoiceRowsInBatches(
  db: Db,
  accountId: string,
  query: InvoiceListQuery,
  sort: InvoiceSort,
  batchSize = 500,
): AsyncGenerator<InvoiceListRow[]> {
  const where = whereOf(accountId, query);
  if (!where) return;
  for (let offset = 0; ; offset += batchSize) {
    const rows = (await select(db, where, sort).limit(batchSize).offset(offset)) as InvoiceListRow[];
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
  }
}
