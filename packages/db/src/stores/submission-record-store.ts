import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import { STATUS_TRANSITIONS, statusesMovableTo, type ServiceCause } from '@vf/core';
import type { Db, DbOrTx } from '../client';
import type { StoredChainRecord } from '../records/chain-record-shape';
import { invoiceLines, invoices, systemSnapshotOf, type AuthorityStatus } from '../schema';
import { STORED_INVOICE_CONTENT_COLUMNS, storedLineOf, type StoredInvoiceContent, type StoredLine } from './chain-append-read-store';
import { previousRecord } from './previous-record';
import { rawRows } from './raw-rows';
import { scheduledForSending } from './scheduled-for-sending';
import { signedRecordStore } from './signed-record-store';

/** (from, to) pairs a worker may write after a send, the authority's answers included: the guard of every outcome. */
const WORKER_MOVES = sql.raw(
  STATUS_TRANSITIONS.filter((t) => (t.by === 'worker' || t.by === 'authority') && t.from !== 'new')
    .map((t) => `('${t.from}', '${t.to}')`)
    .join(', '),
);
const SENDABLE_FROM = statusesMovableTo('sent', 'worker');

export interface NewSubmission {
  taxpayerId: string;
  /** The chain whose records the message carries. */
  chainId: string;
  workerId: string;
  endpoint: string;
  certificateMode: 'taxpayer' | 'platform';
  incident: boolean;
  /** The request as stored: each record whose signed bytes signed_records keeps given by signedRecordMark. */
  requestXml: string;
  /** In message order. */
  invoiceIds: string[];
}

export interface OpenedSubmission {
  submissionId: string;
  /** send_attempts of each invoice, this attempt included. */
  attempts: Map<string, number>;
}

export type SubmissionOutcome = 'answered' | 'transport_error' | 'fault';

export interface SubmissionResult {
  outcome: SubmissionOutcome;
  responseXml?: string | null;
  httpStatus?: number | null;
  faultCode?: string | null;
  errorMessage?: string | null;
  csv?: string | null;
  waitSeconds?: number | null;
}

/** Where one invoice stands after a send (or after a failure before any send). */
export interface InvoiceOutcome {
  invoiceId: string;
  status: AuthorityStatus;
  code?: number | null;
  /** The authority's description, shown on the invoice. */
  message?: string | null;
  csv?: string | null;
  /** Why it is not final yet, or why it ended in error. */
  lastError?: string | null;
  /** When the workers try it next; null: not planned (final, or an error waiting for the user). */
  nextAttemptAt?: Date | null;
  /** A cause on the service's side (certificate, outage…) that the authority code does not say. */
  cause?: ServiceCause | null;
  /** The line written to the invoice's history. */
  note: string;
}

/**
 * A message's audit trail and what it did to its records' statuses. Every write runs in the sender's fenced
 * transaction (the send lease); the status moves are guarded by the statuses module's transitions.
 */
export const submissionRecordStore = {
  /**
   * Records a message before it goes, in one statement: submissions of the chain a sender left `in_flight` when it
   * died closed as transport errors (`abandonedBecause`: their records go again in this one), the submission (in
   * flight, with its request XML), which invoices it carries, and each invoice moved to `sent` with a history event.
   * Run it in the sender's fenced transaction and commit BEFORE any network I/O.
   */
  async open(tx: DbOrTx, s: NewSubmission, abandonedBecause: string): Promise<OpenedSubmission> {
    // Raw: data-modifying CTEs; the invoice ids as one uuid[] rather than parameters a row (a 1,000-record message made 3,000).
    const rows = await rawRows<{ submissionId: string; id: string | null; sendAttempts: number | null }>(
      tx,
      sql`
      WITH abandoned AS (
        UPDATE submissions SET outcome = 'transport_error', error_message = ${abandonedBecause}, finished_at = now()
        WHERE chain_id = ${s.chainId} AND outcome = 'in_flight'
      ), submission AS (
        INSERT INTO submissions (taxpayer_id, chain_id, worker_id, endpoint, certificate_mode, incident, record_count, request_xml)
        VALUES (${s.taxpayerId}, ${s.chainId}, ${s.workerId}, ${s.endpoint}, ${s.certificateMode}, ${s.incident}, ${s.invoiceIds.length}, ${s.requestXml})
        RETURNING id
      ), carried AS (
        INSERT INTO submission_invoices (submission_id, invoice_id, position)
        SELECT submission.id, t.id, t.ord - 1 FROM submission, unnest(${sql.param(s.invoiceIds)}::uuid[]) WITH ORDINALITY AS t(id, ord)
      ), moved AS (
        UPDATE invoices SET authority_status = 'sent', send_attempts = send_attempts + 1, next_attempt_at = NULL, updated_at = now()
        WHERE id = ANY(${sql.param(s.invoiceIds)}::uuid[]) AND authority_status = ANY(${sql.param(SENDABLE_FROM)}::text[])
        RETURNING id, send_attempts, chain_seq
      ), events AS (
        INSERT INTO invoice_status_events (invoice_id, status, message, submission_id)
        SELECT moved.id, 'sent', 'sent to the authority (attempt ' || moved.send_attempts || ')', submission.id FROM moved, submission
      ), through AS (
        -- What the API reads as the chain's backlog (chain length minus this): registered but never yet in a message.
        UPDATE send_states SET sent_through_seq = GREATEST(sent_through_seq, (SELECT max(chain_seq) FROM moved))
        WHERE chain_id = ${s.chainId}
      )
      SELECT submission.id AS submission_id, moved.id, moved.send_attempts FROM submission LEFT JOIN moved ON true`,
    );
    const attempts = new Map<string, number>();
    for (const r of rows) if (r.id !== null) attempts.set(r.id, r.sendAttempts!);
    return { submissionId: rows[0].submissionId, attempts };
  },

  /**
   * Applies each invoice's new status with one history event each, only along the allowed transitions of the
   * statuses module: a final status is never overwritten. With `submission`, in the same statement, stores on it what
   * came back (or why nothing did): the audit trail of the exchange, closed with its records' outcomes.
   */
  async applyInvoiceOutcomes(
    tx: DbOrTx,
    outcomes: InvoiceOutcome[],
    submission: { id: string; result: SubmissionResult } | null,
  ): Promise<number> {
    if (outcomes.length === 0 && !submission) return 0;
    const payload = JSON.stringify(
      outcomes.map((o) => ({
        id: o.invoiceId,
        status: o.status,
        code: o.code ?? null,
        message: o.message ?? null,
        csv: o.csv ?? null,
        last_error: o.lastError ?? null,
        next_attempt_at: o.nextAttemptAt?.toISOString() ?? null,
        cause: o.cause ?? null,
        note: o.note,
      })),
    );
    const r = submission?.result;
    const closed = r
      ? sql`
      UPDATE submissions SET outcome = ${r.outcome}, response_xml = ${r.responseXml ?? null}, http_status = ${r.httpStatus ?? null},
        fault_code = ${r.faultCode ?? null}, error_message = ${r.errorMessage ?? null}, csv = ${r.csv ?? null},
        wait_seconds = ${r.waitSeconds ?? null}, finished_at = now()
      WHERE id = ${submission.id}`
      : sql`SELECT 1`;
    // Raw: a data-modifying CTE over a jsonb recordset, guarded by the allowed (from, to) pairs.
    const applied = await rawRows<{ id: string }>(
      tx,
      sql`
      WITH closed AS (${closed}), o AS (
        SELECT * FROM jsonb_to_recordset(${payload}::jsonb)
          AS o(id uuid, status text, code integer, message text, csv text, last_error text, next_attempt_at timestamptz, cause text, note text)
      ), moved AS (
        UPDATE invoices i SET authority_status = o.status, authority_code = o.code, authority_message = o.message,
          authority_csv = o.csv, last_error = o.last_error, next_attempt_at = o.next_attempt_at, error_cause = o.cause, updated_at = now()
        FROM o WHERE i.id = o.id AND (i.authority_status, o.status) IN (${WORKER_MOVES})
        RETURNING i.id, o.status, o.code, o.note
      ), events AS (
        INSERT INTO invoice_status_events (invoice_id, status, code, message, submission_id)
        SELECT id, status, code, note, ${submission?.id ?? null}::uuid FROM moved
      )
      SELECT id FROM moved`,
    );
    return applied.length;
  },
};

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
