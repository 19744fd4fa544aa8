import { and, asc, between, eq, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { invoiceLines, invoices, integrityAlarms } from '../schema';
import type { StoredChainRecord } from '../records/chain-record-shape';
import { INVOICE_ROW_COLUMNS, invoiceStore } from './invoice-store';
import { previousRecord } from './previous-record';
import { signedRecordStore } from './signed-record-store';

/** A chain's last record as the check before a NO VERI*FACTU record reads it: the record, its status and signed bytes. */
export interface HeadRecord {
  record: StoredChainRecord;
  status: string;
  generatedAt: Date;
  /** null when it was never signed (a VERI*FACTU record not yet sent, or a kept record whose signature is missing). */
  signedXml: string | null;
}

/** A record of a chain as a check walks it: its place, its link and what rebuilding and verifying it need. */
export interface WalkedRecord extends HeadRecord {
  id: string;
  chainSeq: number;
  previousInvoiceId: string | null;
  previousHash: string | null;
  hash: string;
}

export interface NewAlarm {
  chainId: string;
  subject: 'records' | 'events';
  anomaly: 'hash' | 'signature' | 'time' | 'chain';
  recordId: string | null;
  detail: string;
}

export interface OpenAlarm extends NewAlarm {
  id: string;
  raisedAt: Date;
}

export const keptRecordStore = {
  /**
   * Records appended in NO VERI*FACTU, in the transaction that appended them: `kept`, never sent by the workers (their
   * first status, implied by the record, says so too: decision 0065). Nobody saw them `queued`: the append has not
   * committed yet.
   */
  async markKept(tx: DbOrTx, recordIds: string[]): Promise<void> {
    if (recordIds.length === 0) return;
    await tx.update(invoices).set({ authorityStatus: 'kept' }).where(inArray(invoices.id, recordIds));
  },

  /** One record of a chain by its id, with what rebuilding it needs and its signed bytes. */
  async head(db: DbOrTx, recordId: string): Promise<HeadRecord | undefined> {
    const { prev, columns } = previousRecord();
    const [row] = await db
      .select({ record: INVOICE_ROW_COLUMNS, ...columns })
      .from(invoices)
      .leftJoin(prev, eq(prev.id, invoices.previousInvoiceId))
      .where(eq(invoices.id, recordId));
    if (!row) return undefined;
    const r = row.record;
    const record: StoredChainRecord = {
      ...r,
      previous:
        row.prevIssuerNif && row.prevNumber && row.prevDate && row.prevHash
          ? { issuerNif: row.prevIssuerNif, invoiceNumber: row.prevNumber, invoiceDate: row.prevDate, hash: row.prevHash }
          : null,
      lines: await invoiceStore.linesOf(db, recordId),
    };
    // Signed bytes are kept as parts or packed (decisions 0064, 0048): read back through their store, never from the
    // table; a record kept as parts is rebuilt from this row.
    const signed = await signedRecordStore.of(db, [recordId], new Map([[recordId, record]]));
    return { record, status: r.authorityStatus, generatedAt: r.generatedAt, signedXml: signed.get(recordId) ?? null };
  },

  /** The records of a chain from `fromSeq` to `toSeq` (both included), in chain order, with their lines. */
  range(db: DbOrTx, chainId: string, fromSeq: number, toSeq: number): Promise<WalkedRecord[]> {
    return walked(db, and(eq(invoices.chainId, chainId), between(invoices.chainSeq, fromSeq, toSeq)));
  },

  /** The records of a chain generated in [from, to), in chain order, with their lines; at most `limit`. */
  inPeriod(db: DbOrTx, chainId: string, from: Date, to: Date, limit: number): Promise<WalkedRecord[]> {
    return walked(db, and(eq(invoices.chainId, chainId), gte(invoices.generatedAt, from), lt(invoices.generatedAt, to)), limit);
  },

  async raiseAlarm(db: DbOrTx, alarm: NewAlarm): Promise<void> {
    await db.insert(integrityAlarms).values(alarm);
  },

  /** The chain's alarms not cleared, oldest first. */
  openAlarms(db: DbOrTx, chainId: string): Promise<OpenAlarm[]> {
    return db
      .select({
        id: integrityAlarms.id,
        chainId: integrityAlarms.chainId,
        subject: integrityAlarms.subject,
        anomaly: integrityAlarms.anomaly,
        recordId: integrityAlarms.recordId,
        detail: integrityAlarms.detail,
        raisedAt: integrityAlarms.raisedAt,
      })
      .from(integrityAlarms)
      .where(and(eq(integrityAlarms.chainId, chainId), isNull(integrityAlarms.clearedAt)))
      .orderBy(asc(integrityAlarms.raisedAt));
  },

  /** Integrity guaranteed again (a full check found nothing): the chain's alarms of `subject` cleared. */
  async clearAlarms(db: DbOrTx, chainId: string, subject: 'records' | 'events'): Promise<number> {
    const rows = await db
      .update(integrityAlarms)
      .set({ clearedAt: sql`now()` })
      .where(and(eq(integrityAlarms.chainId, chainId), eq(integrityAlarms.subject, subject), isNull(integrityAlarms.clearedAt)))
      .returning({ id: integrityAlarms.id });
    return rows.length;
  },
};

/** The records `where` selects, in chain order, each with its lines, its previous record's link and its signed bytes. */
async function walked(db: DbOrTx, where: SQL | undefined, limit = 100_000): Promise<WalkedRecord[]> {
  const { prev, columns } = previousRecord();
  const rows = await db
    .select({ record: INVOICE_ROW_COLUMNS, ...columns })
    .from(invoices)
    .leftJoin(prev, eq(prev.id, invoices.previousInvoiceId))
    .where(where)
    .orderBy(asc(invoices.chainSeq))
    .limit(limit);
  const ids = rows.map((r) => r.record.id);
  const lines =
    ids.length === 0
      ? []
      : await db.select().from(invoiceLines).where(inArray(invoiceLines.invoiceId, ids)).orderBy(asc(invoiceLines.lineNo));
  const linesOf = new Map<string, typeof lines>();
  for (const line of lines) linesOf.set(line.invoiceId, [...(linesOf.get(line.invoiceId) ?? []), line]);
  const records = new Map<string, StoredChainRecord>(
    rows.map(({ record: r, prevIssuerNif, prevNumber, prevDate, prevHash }) => [
      r.id,
      {
        ...r,
        previous:
          prevIssuerNif && prevNumber && prevDate && prevHash
            ? { issuerNif: prevIssuerNif, invoiceNumber: prevNumber, invoiceDate: prevDate, hash: prevHash }
            : null,
        lines: linesOf.get(r.id) ?? [],
      },
    ]),
  );
  // A record kept as parts is rebuilt from the row just read.
  const signed = await signedRecordStore.of(db, ids, records);
  return rows.map(({ record: r }) => ({
    id: r.id,
    chainSeq: r.chainSeq,
    previousInvoiceId: r.previousInvoiceId,
    previousHash: r.previousHash,
    hash: r.hash,
    record: records.get(r.id)!,
    status: r.authorityStatus,
    generatedAt: r.generatedAt,
    signedXml: signed.get(r.id) ?? null,
  }));
}
