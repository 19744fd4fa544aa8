import { and, asc, count, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { previousRecord } from './previous-record';
import type { StoredChainRecord } from '../records/rebuild-chain-record';
import { invoiceLines, invoices, signedRecords, type AuthorityStatus } from '../schema';
import { storedContentOf, storedLineOf, type StoredLine } from './invoice-record-mapping';
import { scheduledForSending } from './scheduled-for-sending';

/** A record waiting for the authority: the stored record (see rebuildChainRecord) plus its sending state. */
export interface BatchInvoice extends StoredChainRecord {
  chainSeq: number;
  authorityStatus: AuthorityStatus;
  nextAttemptAt: Date | null;
  sendAttempts: number;
  isProduction: boolean;
  generatedAt: Date;
  lines: BatchInvoiceLine[];
  /** The record as it was signed and first sent (signed_records); null while it was never signed. */
  signedXml: string | null;
}

export interface BatchInvoiceLine extends StoredLine {
  lineNo: number;
}

/** What the sender reads of a chain's records: the next message's, and whether any wait at all. */
export const submissionBatchStore = {
  /**
   * The next message's records for a chain: up to `limit` invoices scheduled for sending, in chain order (so one
   * environment). A `sent` one here is an orphan of an attempt whose sender died; it goes again unchanged.
   */
  async load(db: DbOrTx, chainId: string, limit: number): Promise<BatchInvoice[]> {
    const { prev, columns } = previousRecord();
    const rows = await db
      .select({
        invoice: invoices,
        ...columns,
        signedXml: signedRecords.xml,
      })
      .from(invoices)
      .leftJoin(prev, eq(prev.id, invoices.previousInvoiceId))
      .leftJoin(signedRecords, eq(signedRecords.invoiceId, invoices.id))
      .where(and(eq(invoices.chainId, chainId), scheduledForSending))
      .orderBy(asc(invoices.chainSeq))
      .limit(limit);
    if (rows.length === 0) return [];

    const lines = await db
      .select()
      .from(invoiceLines)
      .where(
        inArray(
          invoiceLines.invoiceId,
          rows.map((r) => r.invoice.id),
        ),
      )
      .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.lineNo));
    const linesByInvoice = new Map<string, BatchInvoiceLine[]>();
    for (const l of lines) {
      const list = linesByInvoice.get(l.invoiceId) ?? [];
      list.push({ lineNo: l.lineNo, ...storedLineOf(l) });
      linesByInvoice.set(l.invoiceId, list);
    }

    return rows.map(({ invoice: i, prevIssuerNif, prevNumber, prevDate, prevHash, signedXml }) => ({
      ...storedContentOf(i),
      id: i.id,
      recordType: i.recordType,
      subsanacion: i.subsanacion,
      rechazoPrevio: i.rechazoPrevio,
      sinRegistroPrevio: i.sinRegistroPrevio,
      chainSeq: i.chainSeq,
      authorityStatus: i.authorityStatus,
      nextAttemptAt: i.nextAttemptAt,
      sendAttempts: i.sendAttempts,
      issuerNif: i.issuerNif,
      issuerName: i.issuerName,
      systemSnapshot: i.systemSnapshot,
      isProduction: i.isProduction,
      generatedAtLiteral: i.generatedAtLiteral,
      generatedAt: i.generatedAt,
      hash: i.hash,
      previous:
        i.previousInvoiceId && prevIssuerNif && prevNumber && prevDate && prevHash
          ? { issuerNif: prevIssuerNif, invoiceNumber: prevNumber, invoiceDate: prevDate, hash: prevHash }
          : null,
      lines: linesByInvoice.get(i.id) ?? [],
      signedXml,
    }));
  },

  /**
   * The earliest record of the chain in `error` with nothing planned: it waits for the user, and no later record of the
   * chain may overtake it.
   */
  async firstHeldRecord(db: DbOrTx, chainId: string): Promise<{ id: string; chainSeq: number } | undefined> {
    const [row] = await db
      .select({ id: invoices.id, chainSeq: invoices.chainSeq })
      .from(invoices)
      .where(and(eq(invoices.chainId, chainId), eq(invoices.authorityStatus, 'error'), isNull(invoices.nextAttemptAt)))
      .orderBy(asc(invoices.chainSeq))
      .limit(1);
    return row;
  },

  /** How many of the chain's records are scheduled for sending, counted up to `atMost` (what size its next message is). */
  async countWaiting(db: DbOrTx, chainId: string, atMost: number): Promise<number> {
    const scheduled = db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.chainId, chainId), scheduledForSending))
      .limit(atMost)
      .as('scheduled');
    const [row] = await db.select({ n: count() }).from(scheduled);
    return row.n;
  },

  /** Whether the chain has records the workers send on their own (its job must live on while it does). */
  async chainHasWork(db: DbOrTx, chainId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.chainId, chainId), scheduledForSending))
      .limit(1);
    return row !== undefined;
  },
};
