import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { invoices, type AuthorityStatus, type InvoiceReferenceJson } from '../schema';

export interface InvoiceStatusRow {
  id: string;
  invoiceNumber: string;
  status: AuthorityStatus;
  code: number | null;
  message: string | null;
}

export interface InvoiceLink {
  id: string;
  invoiceNumber: string;
}

/** Reads the dashboard needs beyond the API's invoice store; every query is scoped to the account. */
export const dashboardInvoiceStore = {
  statuses(db: DbOrTx, accountId: string, ids: string[]): Promise<InvoiceStatusRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .select({
        id: invoices.id,
        invoiceNumber: invoices.invoiceNumber,
        status: invoices.authorityStatus,
        code: invoices.authorityCode,
        message: invoices.authorityMessage,
      })
      .from(invoices)
      .where(and(eq(invoices.accountId, accountId), inArray(invoices.id, ids)));
  },

  async correctedInvoicesOf(db: DbOrTx, accountId: string, ids: string[]): Promise<Map<string, InvoiceReferenceJson[]>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ id: invoices.id, corrected: invoices.correctedInvoices })
      .from(invoices)
      .where(and(eq(invoices.accountId, accountId), inArray(invoices.id, ids)));
    return new Map(rows.map((r) => [r.id, r.corrected]));
  },

  /** The records chained before and after this one, for links on the detail page. */
  async neighbours(db: DbOrTx, accountId: string, invoice: { id: string; previousInvoiceId: string | null }): Promise<{ previous?: InvoiceLink; next?: InvoiceLink }> {
    const link = { id: invoices.id, invoiceNumber: invoices.invoiceNumber };
    const [previous] = invoice.previousInvoiceId
      ? await db.select(link).from(invoices).where(and(eq(invoices.accountId, accountId), eq(invoices.id, invoice.previousInvoiceId)))
      : [];
    const [next] = await db
      .select(link)
      .from(invoices)
      .where(and(eq(invoices.accountId, accountId), eq(invoices.previousInvoiceId, invoice.id)))
      .limit(1);
    return { previous, next };
  },

  async qrUrlOf(db: DbOrTx, accountId: string, id: string): Promise<string | undefined> {
    const [row] = await db
      .select({ qrUrl: invoices.qrUrl })
      .from(invoices)
      .where(and(eq(invoices.accountId, accountId), eq(invoices.id, id)));
    return row?.qrUrl;
  },

  /** One page of a chain in chain order, with exactly the stored values the huella was computed from. */
  chainPage(db: DbOrTx, chainId: string, afterSeq: number, limit: number) {
    return db
      .select({
        id: invoices.id,
        chainSeq: invoices.chainSeq,
        recordType: invoices.recordType,
        issuerNif: invoices.issuerNif,
        invoiceNumber: invoices.invoiceNumber,
        invoiceDate: invoices.invoiceDate,
        invoiceType: invoices.invoiceType,
        totalAmount: invoices.totalAmount,
        totalTaxAmount: invoices.totalTaxAmount,
        generatedAt: invoices.generatedAt,
        generatedAtLiteral: invoices.generatedAtLiteral,
        previousInvoiceId: invoices.previousInvoiceId,
        previousHash: invoices.previousHash,
        hash: invoices.hash,
      })
      .from(invoices)
      .where(and(eq(invoices.chainId, chainId), gt(invoices.chainSeq, afterSeq)))
      .orderBy(asc(invoices.chainSeq))
      .limit(limit);
  },
};
