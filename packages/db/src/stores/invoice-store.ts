import { and, asc, desc, eq, gte, ilike, inArray, lte, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { invoiceLines, invoiceStatusEvents, invoices, type AuthorityStatus } from '../schema';
import { afterPageKey, pageKeyColumns, type PageKey } from './page-key';
import { translatingDbErrors } from './store-error';

export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoice = typeof invoices.$inferInsert & { id: string };
export type InvoiceLineRow = typeof invoiceLines.$inferSelect;
export type NewInvoiceLine = Omit<typeof invoiceLines.$inferInsert, 'id' | 'invoiceId' | 'lineNo'>;
export type StatusEventRow = typeof invoiceStatusEvents.$inferSelect;

/** What the next record of the chain needs from the previous one. */
export interface ChainHead {
  id: string;
  issuerNif: string;
  invoiceNumber: string;
  invoiceDate: string;
  hash: string;
  generatedAt: Date;
  generatedAtLiteral: string;
}

export interface InvoiceFilters {
  taxpayerId?: string;
  statuses?: AuthorityStatus[];
  invoiceTypes?: string[];
  /** Inclusive, YYYY-MM-DD, on the invoice date. */
  dateFrom?: string;
  dateTo?: string;
  /** Substring of the invoice number, matched case-insensitively. */
  numberContains?: string;
}

export type InvoiceSummary = Pick<
  InvoiceRow,
  | 'id'
  | 'taxpayerId'
  | 'computerSystemId'
  | 'invoiceNumber'
  | 'invoiceDate'
  | 'invoiceType'
  | 'recordType'
  | 'totalAmount'
  | 'totalTaxAmount'
  | 'chainSeq'
  | 'hash'
  | 'qrUrl'
  | 'authorityStatus'
  | 'authorityCode'
  | 'generatedAtLiteral'
  | 'createdAt'
> & { pageKey: PageKey };

export interface InvoiceDetail {
  invoice: InvoiceRow;
  lines: InvoiceLineRow[];
  events: StatusEventRow[];
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export const invoiceStore = {
  async existsForTaxpayer(db: DbOrTx, taxpayerId: string, invoiceNumber: string, invoiceDate: string): Promise<boolean> {
    const rows = await db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.taxpayerId, taxpayerId), eq(invoices.invoiceNumber, invoiceNumber), eq(invoices.invoiceDate, invoiceDate)))
      .limit(1);
    return rows.length > 0;
  },

  async chainHead(db: DbOrTx, invoiceId: string): Promise<ChainHead | undefined> {
    const [row] = await db
      .select({
        id: invoices.id,
        issuerNif: invoices.issuerNif,
        invoiceNumber: invoices.invoiceNumber,
        invoiceDate: invoices.invoiceDate,
        hash: invoices.hash,
        generatedAt: invoices.generatedAt,
        generatedAtLiteral: invoices.generatedAtLiteral,
      })
      .from(invoices)
      .where(eq(invoices.id, invoiceId));
    return row;
  },

  /** Inserts the invoice, its lines and its first status event. Throws StoreError('conflict') on a duplicate. */
  async insertRegistration(db: DbOrTx, invoice: NewInvoice, lines: NewInvoiceLine[], status: AuthorityStatus): Promise<void> {
    await translatingDbErrors(db.insert(invoices).values(invoice));
    if (lines.length > 0) {
      await db.insert(invoiceLines).values(lines.map((line, i) => ({ ...line, invoiceId: invoice.id, lineNo: i + 1 })));
    }
    await db.insert(invoiceStatusEvents).values({ invoiceId: invoice.id, status });
  },

  /** Newest first; returns up to `limit` rows after `after`. */
  list(db: DbOrTx, accountId: string, filters: InvoiceFilters, after: PageKey | undefined, limit: number): Promise<InvoiceSummary[]> {
    const where: SQL[] = [eq(invoices.accountId, accountId)];
    if (filters.taxpayerId) where.push(eq(invoices.taxpayerId, filters.taxpayerId));
    if (filters.statuses?.length) where.push(inArray(invoices.authorityStatus, filters.statuses));
    if (filters.invoiceTypes?.length) where.push(inArray(invoices.invoiceType, filters.invoiceTypes));
    if (filters.dateFrom) where.push(gte(invoices.invoiceDate, filters.dateFrom));
    if (filters.dateTo) where.push(lte(invoices.invoiceDate, filters.dateTo));
    if (filters.numberContains) where.push(ilike(invoices.invoiceNumber, `%${escapeLike(filters.numberContains)}%`));
    if (after) where.push(afterPageKey(invoices.createdAt, invoices.id, after, 'desc'));
    return db
      .select({
        id: invoices.id,
        taxpayerId: invoices.taxpayerId,
        computerSystemId: invoices.computerSystemId,
        invoiceNumber: invoices.invoiceNumber,
        invoiceDate: invoices.invoiceDate,
        invoiceType: invoices.invoiceType,
        recordType: invoices.recordType,
        totalAmount: invoices.totalAmount,
        totalTaxAmount: invoices.totalTaxAmount,
        chainSeq: invoices.chainSeq,
        hash: invoices.hash,
        qrUrl: invoices.qrUrl,
        authorityStatus: invoices.authorityStatus,
        authorityCode: invoices.authorityCode,
        generatedAtLiteral: invoices.generatedAtLiteral,
        createdAt: invoices.createdAt,
        pageKey: pageKeyColumns(invoices.createdAt, invoices.id),
      })
      .from(invoices)
      .where(and(...where))
      .orderBy(desc(invoices.createdAt), desc(invoices.id))
      .limit(limit);
  },

  async find(db: DbOrTx, accountId: string, id: string): Promise<InvoiceDetail | undefined> {
    const [invoice] = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.accountId, accountId), eq(invoices.id, id)));
    if (!invoice) return undefined;
    const [lines, events] = await Promise.all([
      db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, id)).orderBy(asc(invoiceLines.lineNo)),
      db.select().from(invoiceStatusEvents).where(eq(invoiceStatusEvents.invoiceId, id)).orderBy(asc(invoiceStatusEvents.id)),
    ]);
    return { invoice, lines, events };
  },

  async isOwnedBy(db: DbOrTx, accountId: string, id: string): Promise<boolean> {
    const rows = await db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.accountId, accountId), eq(invoices.id, id)));
    return rows.length > 0;
  },
};
