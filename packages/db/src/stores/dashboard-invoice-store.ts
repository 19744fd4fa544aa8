import { and, asc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../client';
import { invoices, type AuthorityStatus, type InvoiceReferenceJson } from '../schema';

// Invoices are addressed by their public id (their first record's); `cur` is their latest record, their current state.
const cur = alias(invoices, 'cur');

export interface InvoiceStatusRow {
  id: string;
  invoiceNumber: string;
  status: AuthorityStatus;
  code: number | null;
  message: string | null;
  errorCause: string | null;
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
        status: cur.authorityStatus,
        code: cur.authorityCode,
        message: cur.authorityMessage,
        errorCause: cur.errorCause,
      })
      .from(invoices)
      .innerJoin(cur, eq(cur.id, invoices.currentRecordId))
      .where(and(eq(invoices.accountId, accountId), inArray(invoices.id, ids)));
  },

  async correctedInvoicesOf(db: DbOrTx, accountId: string, ids: string[]): Promise<Map<string, InvoiceReferenceJson[]>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ id: invoices.id, corrected: cur.correctedInvoices })
      .from(invoices)
      .innerJoin(cur, eq(cur.id, invoices.currentRecordId))
      .where(and(eq(invoices.accountId, accountId), inArray(invoices.id, ids)));
    return new Map(rows.map((r) => [r.id, r.corrected]));
  },

  /**
   * Both directions between original and corrective (R-type) invoices of one taxpayer: the invoices a corrective one
   * names in corrected_invoices, and the corrective invoices naming this one. Matched on number and date.
   */
  async correctionLinks(
    db: DbOrTx,
    accountId: string,
    invoice: { taxpayerId: string; invoiceNumber: string; invoiceDate: string; correctedInvoices: InvoiceReferenceJson[] },
  ): Promise<{ corrects: (InvoiceLink & { invoiceDate: string })[]; correctedBy: InvoiceLink[] }> {
    const refs = invoice.correctedInvoices;
    const sameTaxpayer = and(
      eq(invoices.accountId, accountId),
      eq(invoices.taxpayerId, invoice.taxpayerId),
      eq(invoices.id, invoices.invoiceId),
    );
    const [corrects, correctedBy] = await Promise.all([
      refs.length === 0
        ? []
        : db
            .select({ id: invoices.id, invoiceNumber: invoices.invoiceNumber, invoiceDate: invoices.invoiceDate })
            .from(invoices)
            .where(
              and(
                sameTaxpayer,
                or(...refs.map((r) => and(eq(invoices.invoiceNumber, r.invoice_number), eq(invoices.invoiceDate, r.invoice_date)))),
              ),
            )
            .orderBy(asc(invoices.invoiceDate), asc(invoices.invoiceNumber)),
      db
        .select({ id: invoices.id, invoiceNumber: invoices.invoiceNumber })
        .from(invoices)
        .innerJoin(cur, eq(cur.id, invoices.currentRecordId))
        .where(
          and(
            sameTaxpayer,
            sql`${cur.correctedInvoices} @> ${JSON.stringify([{ invoice_number: invoice.invoiceNumber, invoice_date: invoice.invoiceDate }])}::jsonb`,
          ),
        )
        .orderBy(asc(invoices.createdAt), asc(invoices.id)),
    ]);
    return { corrects, correctedBy };
  },

  /** The records chained before and after this one, for links on the detail page (to the invoices they belong to). */
  async neighbours(
    db: DbOrTx,
    accountId: string,
    invoice: { id: string; previousInvoiceId: string | null },
  ): Promise<{ previous?: InvoiceLink; next?: InvoiceLink }> {
    const link = { id: invoices.invoiceId, invoiceNumber: invoices.invoiceNumber };
    const [previous] = invoice.previousInvoiceId
      ? await db
          .select(link)
          .from(invoices)
          .where(and(eq(invoices.accountId, accountId), eq(invoices.id, invoice.previousInvoiceId)))
      : [];
    const [next] = await db
      .select(link)
      .from(invoices)
      .where(and(eq(invoices.accountId, accountId), eq(invoices.previousInvoiceId, invoice.id)))
      .limit(1);
    return { previous, next };
  },

  async qrUrlOf(db: DbOrTx, accountId: string, id: string): Promise<string | undefined> {
    // A correction may change the total, which the QR carries: the current record's.
    const [row] = await db
      .select({ qrUrl: cur.qrUrl })
      .from(invoices)
      .innerJoin(cur, eq(cur.id, invoices.currentRecordId))
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
