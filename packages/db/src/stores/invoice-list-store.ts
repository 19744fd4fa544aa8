import { and, asc, count, desc, eq, gte, inArray, isNotNull, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../client';
import { invoices, type AuthorityStatus, type InvoiceReferenceJson, type RecipientJson } from '../schema';
import type { InvoiceSummary } from './invoice-store';
import { recordQrUrl, type QrRecordColumns } from '@vf/core';
import { cancelledSql } from './invoice-store';
import { literalCount } from './literal-count';
import { literalText } from './literal-text';

/**
 * Orders a list can take: a column, descending when prefixed with "-". Equal values are ordered by the invoice id;
 * equal invoice dates first by when the invoices were registered (so a day's invoices keep their registration order).
 */
export const INVOICE_SORTS = [
  '-created_at',
  'created_at',
  '-invoice_date',
  'invoice_date',
  '-invoice_number',
  'invoice_number',
  '-total_amount',
  'total_amount',
] as const;
export type InvoiceSort = (typeof INVOICE_SORTS)[number];
export type InvoiceSortColumn = 'created_at' | 'invoice_date' | 'invoice_number' | 'total_amount';

/** What a list or an export filters on; every field narrows. */
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

/** One invoice in its current state, with what a list, a page or a spreadsheet shows besides the summary. */
export type InvoiceListRow = InvoiceSummary & {
  issuerNif: string;
  /** The current record's first recipient; null for an invoice without one (a simplified invoice, an anulación). */
  recipient: RecipientJson | null;
  recipientName: string | null;
  /** The Spanish NIF, or the foreign identifier for a recipient without one. */
  recipientNif: string | null;
  /** Sum of the current record's breakdown bases; null for a record without lines (an anulación). */
  baseAmount: string | null;
  authorityCsv: string | null;
  /** The invoices a corrective (R-type) invoice corrects; [] for the others. */
  correctedInvoices: InvoiceReferenceJson[];
  /** The sort column's value as PostgreSQL writes it: what a keyset page continues from. */
  sortValue: string;
};

/** Where the last row read sat in the list's order: its sort column's value (PostgreSQL's text) and its id. */
export interface InvoiceListKey {
  value: string;
  id: string;
}

/** Up to this many matching invoices a list's total is counted exactly; past it, it is an estimate. */
export const EXACT_TOTAL_LIMIT = 1000;

/** How many invoices match a list's filters. */
export interface InvoiceTotal {
  total: number;
  /** False past EXACT_TOTAL_LIMIT: `total` is then PostgreSQL's estimate (above the limit). */
  exact: boolean;
}

/** Where a page starts: just after a row already read (keyset), or after skipping rows (numbered pages). */
export type InvoiceListStart = { after: InvoiceListKey } | { offset: number };

// `invoices` is the invoice (its first record, whose id is the invoice's); `cur` its latest record, its current state.
const cur = alias(invoices, 'cur');

// The current record's total, type and recipient NIF as the invoice's first row keeps them (migration 0027): its own
// columns until a correction or cancellation is current. The same expressions as the account indexes that serve them.
const currentTotal = sql`coalesce(${invoices.currentTotalAmount}, ${invoices.totalAmount})`;
const currentType = sql`coalesce(${invoices.currentInvoiceType}, ${invoices.invoiceType})`;
const currentRecipientNif = sql`coalesce(${invoices.currentRecipientNif}, ${invoices.recipient} ->> 'nif')`;
// The current status likewise (migration 0030), matched against literals: a generic plan then knows which statuses
// are asked for, and the expression's statistics say how many invoices hold them (a rare status reads the account's
// status index, a common one the sort's own index).
// The overview's counts and latest problems read it too (invoice-statistics-store.ts, invoice-state-store.ts).
export const invoiceCurrentStatus = sql<AuthorityStatus>`coalesce(${invoices.currentAuthorityStatus}, ${invoices.authorityStatus})`;
export const currentStatusIn = (statuses: readonly AuthorityStatus[]) =>
  sql`${invoiceCurrentStatus} IN (${sql.join(statuses.map(literalText), sql`, `)})`;

// The invoice number in the "C" collation (byte order), as its account index holds it (migration 0032): the sort by
// number and a number prefix (a LIKE ranging over that index) both read it.
const numberInC = sql`${invoices.invoiceNumber} COLLATE "C"`;

const SORT_COLUMNS = {
  created_at: { column: invoices.createdAt, text: sql<string>`${invoices.createdAt}::text`, cast: (v: string) => sql`${v}::timestamptz` },
  invoice_date: { column: invoices.invoiceDate, text: sql<string>`${invoices.invoiceDate}::text`, cast: (v: string) => sql`${v}::date` },
  invoice_number: { column: numberInC, text: sql<string>`${invoices.invoiceNumber}`, cast: (v: string) => sql`${v}::varchar COLLATE "C"` },
  total_amount: { column: currentTotal, text: sql<string>`${currentTotal}::text`, cast: (v: string) => sql`${v}::numeric` },
};

export function sortColumnOf(sort: InvoiceSort): InvoiceSortColumn {
  return sort.replace(/^-/, '') as InvoiceSortColumn;
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function conditions(accountId: string, f: InvoiceListFilters): SQL[] {
  // Implied by the join to the current record; said outright so the planner can use the partial list indexes.
  const where: SQL[] = [eq(invoices.accountId, accountId), isNotNull(invoices.currentRecordId)];
  if (f.taxpayerId) where.push(eq(invoices.taxpayerId, f.taxpayerId));
  if (f.statuses?.length) where.push(currentStatusIn(f.statuses));
  if (f.invoiceTypes?.length) {
    where.push(inArray(currentType, f.invoiceTypes));
    // Implied by the types, written out so that the partial index of corrective invoices serves a generic plan too.
    if (f.invoiceTypes.every((type) => type.startsWith('R'))) where.push(sql`${currentType} LIKE 'R%'`);
  }
  if (f.dateFrom) where.push(gte(invoices.invoiceDate, f.dateFrom));
  if (f.dateTo) where.push(lte(invoices.invoiceDate, f.dateTo));
  if (f.recipientNif) where.push(sql`${currentRecipientNif} = ${f.recipientNif}`);
  // LIKE rather than starts_with: the number index ranges over a LIKE prefix, not over starts_with. Both patterns are
  // literals, which a generic plan can match against the number and trigram indexes (literal-text.ts).
  if (f.numberPrefix) where.push(sql`${numberInC} LIKE ${literalText(`${escapeLike(f.numberPrefix)}%`)}`);
  if (f.numberContains) where.push(sql`${invoices.invoiceNumber} ILIKE ${literalText(`%${escapeLike(f.numberContains)}%`)}`);
  return where;
}

/** The most rows (an offset and a page) a list within dates reads by the plans below (decision 0066). */
export const DATE_RANGE_MAX_ROWS = 201;

/** A sort a date range is read day by day in: its column on the invoice aliased `i`, as its (account, date, …) index holds it. */
interface DaySort {
  column: SQL;
  cast: (v: string) => SQL;
}
const DAY_SORTS: Partial<Record<InvoiceSortColumn, DaySort>> = {
  // The (account, date, created_at, id) index: each day's invoices in registration order.
  created_at: { column: sql`i.created_at`, cast: (v) => sql`${v}::timestamptz` },
  // The (account, date, number) index (migration 0037): each day's invoices in number order, equal numbers (of other
  // chains) then sorted by id.
  invoice_number: { column: sql`i.invoice_number COLLATE "C"`, cast: (v) => sql`${v}::varchar COLLATE "C"` },
};

/**
 * The first `wanted` invoices of a date range in the list's order (registration time or number), read day by day
 * from an index of (account, date, the sort's column), where each day's invoices lie in that order: the first
 * invoice of each day of the range (one index descent a day); the `wanted` days whose first invoice comes first; the
 * first invoices of each of those days (`wanted` of the first day, one fewer of each next); the first `wanted` of them.
 * Every invoice of the answer lies on one of those days: a later day has `wanted` invoices before its first. The cost
 * depends on the days of the range, not on where the range lies among the account's invoices, where reading the
 * account's invoices in the sort's order until `wanted` fall in the range read every invoice before them (at a
 * million, eleven months of them for a month a year back).
 */
function dayByDay(
  accountId: string,
  f: InvoiceListFilters,
  by: DaySort,
  descending: boolean,
  after: InvoiceListKey | undefined,
  wanted: number,
): SQL {
  const dir = sql.raw(descending ? 'DESC' : 'ASC');
  const firstRows = sql`i.account_id = ${accountId} AND i.current_record_id IS NOT NULL`;
  const key = after
    ? sql` AND (${by.column}, i.id) ${sql.raw(descending ? '<' : '>')} (${by.cast(after.value)}, ${after.id}::uuid)`
    : sql``;
  // The range kept within the account's own first and last dates (one descent each): an open or a wide range then
  // costs the days that hold invoices, not every day since the year 1.
  const edge = (agg: 'min' | 'max', given: string | undefined) => {
    const own = sql`(SELECT ${sql.raw(agg)}(i.invoice_date) FROM invoices i WHERE ${firstRows})`;
    return given ? sql`${sql.raw(agg === 'min' ? 'greatest' : 'least')}(${given}::date, ${own})` : own;
  };
  const n = sql.raw(String(wanted));
  const firstOf = (day: SQL, limit: SQL) =>
    sql`SELECT ${by.column} AS v, i.id FROM invoices i WHERE ${firstRows} AND i.invoice_date = ${day}${key}
      ORDER BY ${by.column} ${dir}, i.id ${dir} LIMIT ${limit}`;
  // The r-th of those days can hold at most wanted - r + 1 of the answer: r - 1 days' first invoices come before
  // any of its own.
  return sql`SELECT k.id FROM (
      SELECT d.day, row_number() OVER (ORDER BY f.v ${dir}, f.id ${dir}) AS r
      FROM (SELECT ${edge('min', f.dateFrom)} AS lo, ${edge('max', f.dateTo)} AS hi) b
        CROSS JOIN generate_series(0, b.hi - b.lo) g(n) CROSS JOIN LATERAL (SELECT b.lo + g.n AS day) d
        CROSS JOIN LATERAL (${firstOf(sql`d.day`, sql.raw('1'))}) f
      ORDER BY f.v ${dir}, f.id ${dir} LIMIT ${n}) days
    CROSS JOIN LATERAL (${firstOf(sql`days.day`, sql`${n} + 1 - days.r`)}) k
    ORDER BY k.v ${dir}, k.id ${dir} LIMIT ${n}`;
}

/** A date range holding at most this many invoices is read whole and sorted when sorted by total. */
export const FEW_IN_RANGE = 5000;

/**
 * The first `wanted` invoices of a date range sorted by total: a range of at most FEW_IN_RANGE invoices
 * (counted from the date index, a bounded count) is read whole from the date index and sorted; a larger one is read
 * from the sort's own index until `wanted` fall in it, which then takes about wanted / (the range's share of the
 * account's invoices) rows. One statement, each branch gated by the count, so a generic plan holds both.
 */
function fewOrWalk(
  accountId: string,
  f: InvoiceListFilters,
  by: { column: SQLWrapper; cast: (v: string) => SQL },
  descending: boolean,
  after: InvoiceListKey | undefined,
  wanted: number,
): SQL {
  const dir = sql.raw(descending ? 'DESC' : 'ASC');
  const range = and(...conditions(accountId, f));
  const key = after
    ? sql` AND (${by.column}, ${invoices.id}) ${sql.raw(descending ? '<' : '>')} (${by.cast(after.value)}, ${after.id}::uuid)`
    : sql``;
  const n = sql.raw(String(wanted));
  const few = sql.raw(String(FEW_IN_RANGE));
  // The range read in the date index's order, and at most FEW_IN_RANGE of it: a generic plan then reads it from that
  // index, never the table whole, and its cost stays under JIT's threshold (a JIT compilation costs ~100 ms).
  return sql`WITH few AS MATERIALIZED (
      SELECT count(*) <= ${few} AS yes FROM (SELECT 1 FROM invoices WHERE ${range} LIMIT ${few} + 1) c)
    (SELECT r.id FROM (SELECT ${invoices.id} AS id, ${by.column} AS v FROM invoices WHERE ${range}${key}
        ORDER BY ${invoices.invoiceDate}, ${invoices.createdAt}, ${invoices.id} LIMIT ${few}) r
      WHERE (SELECT yes FROM few) ORDER BY r.v ${dir}, r.id ${dir} LIMIT ${n})
    UNION ALL
    (SELECT ${invoices.id} FROM invoices WHERE ${range}${key} AND NOT (SELECT yes FROM few)
      ORDER BY ${by.column} ${dir}, ${invoices.id} ${dir} LIMIT ${n})`;
}

/** How a list filtered by dates alone, with a page small enough, is read: by its own index unless said here. */
function dateRangeRead(f: InvoiceListFilters, column: InvoiceSortColumn, wanted: number): 'day-by-day' | 'few-or-walk' | null {
  // Any other filter, including one added later, keeps the list on its own index: both reads order and count the
  // range's invoices alone.
  const given = (value: unknown) => (Array.isArray(value) ? value.length > 0 : value !== undefined && value !== '');
  const others = Object.entries(f).some(([name, value]) => name !== 'dateFrom' && name !== 'dateTo' && given(value));
  if (!(f.dateFrom || f.dateTo) || others || wanted > DATE_RANGE_MAX_ROWS) return null;
  if (DAY_SORTS[column]) return 'day-by-day';
  return column === 'invoice_date' ? null : 'few-or-walk';
}

/**
 * The one read model of invoice lists (the API's list and export, the dashboard's pages and export): one row per
 * invoice in its current state (the first record joined to its latest one), filtered, sorted and counted the same
 * way for every reader. A page starts after a key (keyset: bounded reads of a list of any size) or at an offset
 * (numbered pages).
 */
// The QR URL is not kept (decision 0065): each row's is rebuilt from the columns it is made of, the current record's.
function withQrUrl<R extends QrRecordColumns>(row: R): R & { qrUrl: string } {
  return Object.assign(row, { qrUrl: recordQrUrl(row) });
}

export const invoiceListStore = {
  async page(
    db: DbOrTx,
    accountId: string,
    filters: InvoiceListFilters,
    sort: InvoiceSort,
    start: InvoiceListStart | undefined,
    limit: number,
  ): Promise<InvoiceListRow[]> {
    const descending = sort.startsWith('-');
    const column = sortColumnOf(sort);
    const by = SORT_COLUMNS[column];
    const byDate = column === 'invoice_date';
    const offset = start && 'offset' in start ? start.offset : 0;
    const after = start && 'after' in start ? start.after : undefined;
    const where = conditions(accountId, filters);
    const read = dateRangeRead(filters, column, offset + limit);
    const daySort = read === 'day-by-day' ? DAY_SORTS[column] : undefined;
    if (daySort) {
      where.push(sql`${invoices.id} IN (${dayByDay(accountId, filters, daySort, descending, after, offset + limit)})`);
    } else if (read === 'few-or-walk') {
      where.push(sql`${invoices.id} IN (${fewOrWalk(accountId, filters, by, descending, after, offset + limit)})`);
    } else if (after) {
      const { value, id } = after;
      // A key holds the sort value and the id; a date's tie-breaker, the registration time, is the keyed row's own.
      const registeredAt = sql`(select k.created_at from invoices k where k.id = ${id}::uuid and k.account_id = ${accountId})`;
      const [columns, key] = byDate
        ? [sql`(${by.column}, ${invoices.createdAt}, ${invoices.id})`, sql`(${by.cast(value)}, ${registeredAt}, ${id}::uuid)`]
        : [sql`(${by.column}, ${invoices.id})`, sql`(${by.cast(value)}, ${id}::uuid)`];
      where.push(descending ? sql`${columns} < ${key}` : sql`${columns} > ${key}`);
      // The same bound on the date alone, which the (account, date, id) index can start its scan from.
      if (byDate) where.push(descending ? sql`${by.column} <= ${by.cast(value)}` : sql`${by.column} >= ${by.cast(value)}`);
    }
    const order = descending ? desc : asc;
    const orderBy = byDate ? [order(by.column), order(invoices.createdAt), order(invoices.id)] : [order(by.column), order(invoices.id)];
    const query = db
      .select({
        id: invoices.id,
        taxpayerId: invoices.taxpayerId,
        computerSystemId: cur.computerSystemId,
        issuerNif: invoices.issuerNif,
        invoiceNumber: invoices.invoiceNumber,
        invoiceDate: invoices.invoiceDate,
        invoiceType: cur.invoiceType,
        recordType: cur.recordType,
        totalAmount: cur.totalAmount,
        totalTaxAmount: cur.totalTaxAmount,
        chainSeq: cur.chainSeq,
        hash: cur.hash,
        isProduction: cur.isProduction,
        qrNoVerifactu: cur.qrNoVerifactu,
        authorityStatus: cur.authorityStatus,
        authorityCode: cur.authorityCode,
        authorityCsv: cur.authorityCsv,
        generatedAtLiteral: cur.generatedAtLiteral,
        createdAt: invoices.createdAt,
        cancelled: cancelledSql(invoices.id, cur),
        recipient: cur.recipient,
        recipientName: sql<string | null>`${cur.recipient}->>'name'`,
        recipientNif: sql<string | null>`coalesce(${cur.recipient}->>'nif', ${cur.recipient}->>'id')`,
        baseAmount: sql<string | null>`(select sum(l.base_amount)::text from invoice_lines l where l.invoice_id = ${cur.id})`,
        correctedInvoices: cur.correctedInvoices,
        sortValue: by.text,
        pageKey: { createdAt: sql<string>`${invoices.createdAt}::text`, id: sql<string>`${invoices.id}` },
      })
      .from(invoices)
      .innerJoin(cur, eq(cur.id, invoices.currentRecordId))
      .where(and(...where))
      .orderBy(...orderBy)
      .limit(literalCount(limit));
    const rows = await (start && 'offset' in start ? query.offset(literalCount(start.offset)) : query);
    return rows.map(withQrUrl);
  },

  /**
   * How many invoices match the filters in all: counted exactly up to EXACT_TOTAL_LIMIT; past it, PostgreSQL's
   * estimate of the same query (never below the limit), marked as one. Counting a million rows would cost a page
   * of the list seconds.
   */
  async count(db: DbOrTx, accountId: string, filters: InvoiceListFilters): Promise<InvoiceTotal> {
    const where = and(...conditions(accountId, filters));
    // Never joined to the current record: an invoice's first row keeps its current total, type, recipient NIF and
    // status (migrations 0027 and 0032).
    const matching = () =>
      db
        .select({ one: sql`1` })
        .from(invoices)
        .where(where);
    const [row] = await db.select({ n: count() }).from(
      matching()
        .limit(EXACT_TOTAL_LIMIT + 1)
        .as('matching'),
    );
    if (row.n <= EXACT_TOTAL_LIMIT) return { total: row.n, exact: true };
    const { rows } = await db.execute<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(sql`EXPLAIN (FORMAT JSON) ${matching()}`);
    return { total: Math.max(Math.round(rows[0]['QUERY PLAN'][0].Plan['Plan Rows']), EXACT_TOTAL_LIMIT + 1), exact: false };
  },
};
