import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { cancelledSql, invoices, type AuthorityStatus, type DbOrTx } from '@vf/db';
import type { InvoiceSummary } from '@vf/db';
import type { InvoiceCursor } from './invoice-cursor';
import type { InvoiceSort } from './invoice-list-schema';

/** What the list and the export filter on; every field narrows. */
export interface InvoiceListFilters {
  taxpayerId?: string;
  statuses?: AuthorityStatus[];
  invoiceTypes?: string[];
  /** Inclusive, YYYY-MM-DD, on the invoice date. */
  dateFrom?: string;
  dateTo?: string;
  recipientNif?: string;
  numberPrefix?: string;
  numberContains?: string;
}

/** One invoice in its current state, with what a list or a spreadsheet shows besides the summary. */
export type InvoiceListRow = InvoiceSummary & {
  recipientName: string | null;
  recipientNif: string | null;
  /** Sum of the current record's breakdown bases; null for a record without lines (an anulación). */
  baseAmount: string | null;
  authorityCsv: string | null;
  /** The sort column's value as PostgreSQL writes it: what a cursor continues from. */
  sortValue: string;
};

const cur = alias(invoices, 'cur');

const SORT_COLUMNS = {
  created_at: { column: invoices.createdAt, text: sql<string>`${invoices.createdAt}::text`, cast: (v: string) => sql`${v}::timestamptz` },
  invoice_date: { column: invoices.invoiceDate, text: sql<string>`${invoices.invoiceDate}::text`, cast: (v: string) => sql`${v}::date` },
  invoice_number: { column: invoices.invoiceNumber, text: sql<string>`${invoices.invoiceNumber}`, cast: (v: string) => sql`${v}::varchar` },
};

function sortOf(sort: InvoiceSort) {
  const descending = sort.startsWith('-');
  return { descending, ...SORT_COLUMNS[sort.replace(/^-/, '') as keyof typeof SORT_COLUMNS] };
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function conditions(accountId: string, f: InvoiceListFilters): SQL[] {
  // Implied by the join to the current record; said outright so the planner can use the partial list indexes.
  const where: SQL[] = [eq(invoices.accountId, accountId), isNotNull(invoices.currentRecordId)];
  if (f.taxpayerId) where.push(eq(invoices.taxpayerId, f.taxpayerId));
  if (f.statuses?.length) where.push(inArray(cur.authorityStatus, f.statuses));
  if (f.invoiceTypes?.length) where.push(inArray(cur.invoiceType, f.invoiceTypes));
  if (f.dateFrom) where.push(gte(invoices.invoiceDate, f.dateFrom));
  if (f.dateTo) where.push(lte(invoices.invoiceDate, f.dateTo));
  if (f.recipientNif) where.push(sql`${cur.recipient}->>'nif' = ${f.recipientNif}`);
  if (f.numberPrefix) where.push(sql`starts_with(${invoices.invoiceNumber}, ${f.numberPrefix})`);
  if (f.numberContains) where.push(ilike(invoices.invoiceNumber, `%${escapeLike(f.numberContains)}%`));
  return where;
}

/**
 * Lists and counts invoices (one row each, in its current state: the first record joined to its latest one).
 * Reads are keyset pages, so a list of any size is read in bounded steps.
 */
export const invoiceListing = {
  page(
    db: DbOrTx,
    accountId: string,
    filters: InvoiceListFilters,
    sort: InvoiceSort,
    after: InvoiceCursor | undefined,
    limit: number,
  ): Promise<InvoiceListRow[]> {
    const by = sortOf(sort);
    const where = conditions(accountId, filters);
    if (after) {
      where.push(
        by.descending
          ? sql`(${by.column}, ${invoices.id}) < (${by.cast(after.value)}, ${after.id}::uuid)`
          : sql`(${by.column}, ${invoices.id}) > (${by.cast(after.value)}, ${after.id}::uuid)`,
      );
    }
    const order = by.descending ? desc : asc;
    return db
      .select({
        id: invoices.id,
        taxpayerId: invoices.taxpayerId,
        computerSystemId: cur.computerSystemId,
        invoiceNumber: invoices.invoiceNumber,
        invoiceDate: invoices.invoiceDate,
        invoiceType: cur.invoiceType,
        recordType: cur.recordType,
        totalAmount: cur.totalAmount,
        totalTaxAmount: cur.totalTaxAmount,
        chainSeq: cur.chainSeq,
        hash: cur.hash,
        qrUrl: cur.qrUrl,
        authorityStatus: cur.authorityStatus,
        authorityCode: cur.authorityCode,
        authorityCsv: cur.authorityCsv,
        generatedAtLiteral: cur.generatedAtLiteral,
        createdAt: invoices.createdAt,
        cancelled: cancelledSql(invoices.id, cur),
        recipientName: sql<string | null>`${cur.recipient}->>'name'`,
        recipientNif: sql<string | null>`coalesce(${cur.recipient}->>'nif', ${cur.recipient}->>'id')`,
        baseAmount: sql<string | null>`(select sum(l.base_amount)::text from invoice_lines l where l.invoice_id = ${cur.id})`,
        sortValue: by.text,
        pageKey: { createdAt: sql<string>`${invoices.createdAt}::text`, id: sql<string>`${invoices.id}` },
      })
      .from(invoices)
      .innerJoin(cur, eq(cur.id, invoices.currentRecordId))
      .where(and(...where))
      .orderBy(order(by.column), order(invoices.id))
      .limit(limit);
  },

  async count(db: DbOrTx, accountId: string, filters: InvoiceListFilters): Promise<number> {
    const [row] = await db
      .select({ total: count() })
      .from(invoices)
      .innerJoin(cur, eq(cur.id, invoices.currentRecordId))
      .where(and(...conditions(accountId, filters)));
    return row.total;
  },
};
