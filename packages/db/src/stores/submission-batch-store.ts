import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client';
import { previousRecord } from './previous-record';
import type { StoredChainRecord } from '../records/chain-record-shape';
import { invoiceLines, invoices, systemSnapshotOf, type AuthorityStatus } from '../schema';
import { signedRecordStore } from './signed-record-store';
import { STORED_INVOICE_CONTENT_COLUMNS, storedLineOf, type StoredInvoiceContent, type StoredLine } from './stored-invoice-content';
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
  /** The sandbox scenario it goes under: only on a scenario chain, whose records go to the simulator alone. */
  sandboxScenario: string | null;
}

export interface BatchInvoiceLine extends StoredLine {
  lineNo: number;
}

/**
 * The columns a record is rebuilt and sent from (a third of the row is not read: its answer, its list keys, its QR,
 * its warnings): a 1,000-record message reads them all.
 */
const SENT_COLUMNS = {
  id: invoices.id,
  recordType: invoices.recordType,
  subsanacion: invoices.subsanacion,
  rechazoPrevio: invoices.rechazoPrevio,
  sinRegistroPrevio: invoices.sinRegistroPrevio,
  chainSeq: invoices.chainSeq,
  authorityStatus: invoices.authorityStatus,
  nextAttemptAt: invoices.nextAttemptAt,
  sendAttempts: invoices.sendAttempts,
  issuerNif: invoices.issuerNif,
  issuerName: invoices.issuerName,
  systemSnapshot: systemSnapshotOf(invoices.systemSnapshotId),
  isProduction: invoices.isProduction,
  generatedAtLiteral: invoices.generatedAtLiteral,
  generatedAt: invoices.generatedAt,
  hash: invoices.hash,
  previousInvoiceId: invoices.previousInvoiceId,
  ...STORED_INVOICE_CONTENT_COLUMNS,
} satisfies Record<keyof StoredInvoiceContent, unknown> & Record<string, unknown>;

// Every message reads its size, the record holding the chain, its records and their lines: built once per database
// and prepared on the server, never rebuilt per message. The lines take the ids as one array (not a parameter each,
// 1,000 in a full message).
const prepared = new WeakMap<Db, ReturnType<typeof prepareReads>>();
function prepareReads(db: Db) {
  const { prev, columns } = previousRecord();
  return {
    records: db
      .select({ ...SENT_COLUMNS, ...columns, sandboxScenario: invoices.sandboxScenario })
      .from(invoices)
      .leftJoin(prev, eq(prev.id, invoices.previousInvoiceId))
      .where(and(eq(invoices.chainId, sql.placeholder('chainId')), scheduledForSending))
      .orderBy(asc(invoices.chainSeq))
      .limit(sql.placeholder('limit'))
      .prepare('vf_send_records'),
    lines: db
      .select()
      .from(invoiceLines)
      .where(sql`${invoiceLines.invoiceId} = ANY(${sql.placeholder('ids')}::uuid[])`)
      .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.lineNo))
      .prepare('vf_send_lines'),
    // The status a literal, as in scheduledForSending: the chain index of records not at rest serves it then.
    held: db
      .select({ id: invoices.id, chainSeq: invoices.chainSeq })
      .from(invoices)
      .where(
        and(eq(invoices.chainId, sql.placeholder('chainId')), sql`${invoices.authorityStatus} = 'error'`, isNull(invoices.nextAttemptAt)),
      )
      .orderBy(asc(invoices.chainSeq))
      .limit(1)
      .prepare('vf_send_held'),
    waiting: db
      .select({ n: count() })
      .from(
        db
          .select({ id: invoices.id })
          .from(invoices)
          .where(and(eq(invoices.chainId, sql.placeholder('chainId')), scheduledForSending))
          .limit(sql.placeholder('atMost'))
          .as('scheduled'),
      )
      .prepare('vf_send_waiting'),
  };
}

function readsOf(db: Db): ReturnType<typeof prepareReads> {
  let reads = prepared.get(db);
  if (!reads) {
    reads = prepareReads(db);
    prepared.set(db, reads);
  }
  return reads;
}

/** What the sender reads of a chain's records: the next message's, and whether any wait at all. */
export const submissionBatchStore = {
  /**
   * The next message's records for a chain: up to `limit` invoices scheduled for sending, in chain order (so one
   * environment). A `sent` one here is an orphan of an attempt whose sender died; it goes again unchanged.
   */
  async load(db: Db, chainId: string, limit: number): Promise<BatchInvoice[]> {
    const reads = readsOf(db);
    const rows = await reads.records.execute({ chainId, limit });
    if (rows.length === 0) return [];

    const ids = rows.map((r) => r.id);
    const [lines, signed] = await Promise.all([reads.lines.execute({ ids }), signedRecordStore.of(db, ids)]);
    const linesByInvoice = new Map<string, BatchInvoiceLine[]>();
    for (const l of lines) {
      const list = linesByInvoice.get(l.invoiceId) ?? [];
      list.push({ lineNo: l.lineNo, ...storedLineOf(l) });
      linesByInvoice.set(l.invoiceId, list);
    }

    return rows.map(({ previousInvoiceId, prevIssuerNif, prevNumber, prevDate, prevHash, ...row }) => ({
      ...row,
      previous:
        previousInvoiceId && prevIssuerNif && prevNumber && prevDate && prevHash
          ? { issuerNif: prevIssuerNif, invoiceNumber: prevNumber, invoiceDate: prevDate, hash: prevHash }
          : null,
      lines: linesByInvoice.get(row.id) ?? [],
      signedXml: signed.get(row.id) ?? null,
    }));
  },

  /**
   * The earliest record of the chain in `error` with nothing planned: it waits for the user, and no later record of the
   * chain may overtake it.
   */
  async firstHeldRecord(db: Db, chainId: string): Promise<{ id: string; chainSeq: number } | undefined> {
    const [row] = await readsOf(db).held.execute({ chainId });
    return row;
  },

  /** How many of the chain's records are scheduled for sending, counted up to `atMost` (what size its next message is). */
  async countWaiting(db: Db, chainId: string, atMost: number): Promise<number> {
    const [row] = await readsOf(db).waiting.execute({ chainId, atMost });
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
