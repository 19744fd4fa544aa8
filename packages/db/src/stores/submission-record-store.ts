import { and, eq, sql } from 'drizzle-orm';
import { STATUS_TRANSITIONS, statusesMovableTo, type ServiceCause } from '@vf/core';
import type { DbOrTx } from '../client';
import { submissions, type AuthorityStatus } from '../schema';
import { rawRows } from './raw-rows';

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
   * Records a message before it goes: the submission (in flight, with its request XML), which invoices it carries,
   * and each invoice moved to `sent` with a history event. Run it in the sender's fenced transaction and commit
   * BEFORE any network I/O.
   */
  async open(tx: DbOrTx, s: NewSubmission): Promise<OpenedSubmission> {
    const [row] = await tx
      .insert(submissions)
      .values({
        taxpayerId: s.taxpayerId,
        chainId: s.chainId,
        workerId: s.workerId,
        endpoint: s.endpoint,
        certificateMode: s.certificateMode,
        incident: s.incident,
        recordCount: s.invoiceIds.length,
        requestXml: s.requestXml,
      })
      .returning({ id: submissions.id });
    // Raw: one uuid[] rather than three parameters a row (a 1,000-record message made 3,000).
    await tx.execute(sql`
      INSERT INTO submission_invoices (submission_id, invoice_id, position)
      SELECT ${row.id}::uuid, id, ord - 1 FROM unnest(${sql.param(s.invoiceIds)}::uuid[]) WITH ORDINALITY AS t(id, ord)`);
    // Raw: a data-modifying CTE (move, history events and backlog mark in one statement).
    const moved = await rawRows<{ id: string; sendAttempts: number }>(
      tx,
      sql`
      WITH moved AS (
        UPDATE invoices SET authority_status = 'sent', send_attempts = send_attempts + 1, next_attempt_at = NULL, updated_at = now()
        WHERE id = ANY(${sql.param(s.invoiceIds)}::uuid[]) AND authority_status = ANY(${sql.param(SENDABLE_FROM)}::text[])
        RETURNING id, send_attempts, chain_seq
      ), events AS (
        INSERT INTO invoice_status_events (invoice_id, status, message, submission_id)
        SELECT id, 'sent', 'sent to the authority (attempt ' || send_attempts || ')', ${row.id}::uuid FROM moved
      ), through AS (
        -- What the API reads as the chain's backlog (chain length minus this): registered but never yet in a message.
        UPDATE send_states SET sent_through_seq = GREATEST(sent_through_seq, (SELECT max(chain_seq) FROM moved))
        WHERE chain_id = ${s.chainId}
      )
      SELECT id, send_attempts FROM moved`,
    );
    return { submissionId: row.id, attempts: new Map(moved.map((m) => [m.id, m.sendAttempts])) };
  },

  /** Stores what came back (or why nothing did) on the submission: the audit trail of the exchange. */
  async close(tx: DbOrTx, submissionId: string, r: SubmissionResult): Promise<void> {
    await tx
      .update(submissions)
      .set({
        outcome: r.outcome,
        responseXml: r.responseXml ?? null,
        httpStatus: r.httpStatus ?? null,
        faultCode: r.faultCode ?? null,
        errorMessage: r.errorMessage ?? null,
        csv: r.csv ?? null,
        waitSeconds: r.waitSeconds ?? null,
        finishedAt: sql`now()`,
      })
      .where(eq(submissions.id, submissionId));
  },

  /**
   * Applies each invoice's new status with one history event each, only along the allowed transitions of the
   * statuses module: a final status is never overwritten.
   */
  async applyInvoiceOutcomes(tx: DbOrTx, outcomes: InvoiceOutcome[], submissionId: string | null): Promise<number> {
    if (outcomes.length === 0) return 0;
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
    // Raw: a data-modifying CTE over a jsonb recordset, guarded by the allowed (from, to) pairs.
    const applied = await rawRows<{ id: string }>(
      tx,
      sql`
      WITH o AS (
        SELECT * FROM jsonb_to_recordset(${payload}::jsonb)
          AS o(id uuid, status text, code integer, message text, csv text, last_error text, next_attempt_at timestamptz, cause text, note text)
      ), moved AS (
        UPDATE invoices i SET authority_status = o.status, authority_code = o.code, authority_message = o.message,
          authority_csv = o.csv, last_error = o.last_error, next_attempt_at = o.next_attempt_at, error_cause = o.cause, updated_at = now()
        FROM o WHERE i.id = o.id AND (i.authority_status, o.status) IN (${WORKER_MOVES})
        RETURNING i.id, o.status, o.code, o.note
      ), events AS (
        INSERT INTO invoice_status_events (invoice_id, status, code, message, submission_id)
        SELECT id, status, code, note, ${submissionId}::uuid FROM moved
      )
      SELECT id FROM moved`,
    );
    return applied.length;
  },

  /** Submissions left `in_flight` by a sender that died: closed as transport errors when their records go again. */
  async abandonInFlight(tx: DbOrTx, chainId: string, reason: string): Promise<number> {
    const rows = await tx
      .update(submissions)
      .set({ outcome: 'transport_error', errorMessage: reason, finishedAt: sql`now()` })
      .where(and(eq(submissions.chainId, chainId), eq(submissions.outcome, 'in_flight')))
      .returning({ id: submissions.id });
    return rows.length;
  },
};
