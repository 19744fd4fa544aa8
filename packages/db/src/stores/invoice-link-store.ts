import { and, asc, eq, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../client';
import { invoices, type InvoiceReferenceJson } from '../schema';

// Invoices are addressed by their public id (their first record's); `cur` is their latest record, their current state.
const cur = alias(invoices, 'cur');

export interface InvoiceLink {
  id: string;
  invoiceNumber: string;
}

/**
 * How invoices point at one another: a corrective invoice at the invoices it corrects (by number and date), a record
 * at the one chained before it. Every query is scoped to the account.
 */
export const invoiceLinkStore = {
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
};
