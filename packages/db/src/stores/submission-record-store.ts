import { sql } from 'drizzle-orm';
import { STATUS_TRANSITIONS, statusesMovableTo, type ServiceCause } from '@vf/core';
import type { DbOrTx } from '../client';
import { submissionInvoices, submissions, type AuthorityStatus } from '../schema';

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

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * Records a message before it goes: the submission (in flight, with its request XML), which invoices it carries,
 * and each invoice moved to `sent` with a history event. Run it in the sender's fenced transaction and commit
 * BEFORE any network I/O.
 */
export async function openSubmission(tx: DbOrTx, s: NewSubmission): Promise<OpenedSubmission> {
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
  await tx.insert(submissionInvoices).values(s.invoiceIds.map((invoiceId, position) => ({ submissionId: row.id, invoiceId, position })));
  const moved = rowsOf<{ id: string; send_attempts: number }>(
    await tx.execute(sql`
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
      SELECT id, send_attempts FROM moved`),
  );
  return { submissionId: row.id, attempts: new Map(moved.map((m) => [m.id, m.send_attempts])) };
}

/** Stores what came back (or why nothing did) on the submission: the audit trail of the exchange. */
export async function closeSubmission(tx: DbOrTx, submissionId: string, r: SubmissionResult): Promise<void> {
  await tx.execute(sql`
    UPDATE submissions SET outcome = ${r.outcome}, response_xml = ${r.responseXml ?? null}, http_status = ${r.httpStatus ?? null},
      fault_code = ${r.faultCode ?? null}, error_message = ${r.errorMessage ?? null}, csv = ${r.csv ?? null},
      wait_seconds = ${r.waitSeconds ?? null}, finished_at = now()
    WHERE id = ${submissionId}`);
}

/**
 * Applies each invoice's new status with one history event each, only along the allowed transitions of the
 * statuses module: a final status is never overwritten.
 */
export async function applyInvoiceOutcomes(tx: DbOrTx, outcomes: InvoiceOutcome[], submissionId: string | null): Promise<number> {
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
  const applied = rowsOf<{ id: string }>(
    await tx.execute(sql`
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
      SELECT id FROM moved`),
  );
  return applied.length;
}

/** Submissions left `in_flight` by a sender that died: closed as transport errors when their records go again. */
export async function abandonInFlightSubmissions(tx: DbOrTx, chainId: string, reason: string): Promise<number> {
  const r = rowsOf<{ id: string }>(
    await tx.execute(sql`
      UPDATE submissions SET outcome = 'transport_error', error_message = ${reason}, finished_at = now()
      WHERE chain_id = ${chainId} AND outcome = 'in_flight'
      RETURNING id`),
  );
  return r.length;
}

/**
 * Records go in chain order: every record of the chain after its earliest one in `error` waiting for the
 * user waits with it (`error`, cause waiting_for_earlier_record), so the user sees why. `alsoRetrying` includes
 * records in `error` with a next attempt; only the lease holder may pass it (they may be in its hands otherwise).
 * Returns the ids held.
 */
export async function holdRecordsBehind(
  tx: DbOrTx,
  chainId: string,
  opts: { alsoRetrying: boolean; onlyInvoiceId?: string },
): Promise<string[]> {
  const held = rowsOf<{ id: string }>(
    await tx.execute(sql`
      WITH head AS (
        SELECT id, chain_seq FROM invoices
        WHERE chain_id = ${chainId} AND authority_status = 'error' AND next_attempt_at IS NULL
        ORDER BY chain_seq LIMIT 1
      ), moved AS (
        UPDATE invoices i SET authority_status = 'error', next_attempt_at = NULL, error_cause = 'waiting_for_earlier_record',
          authority_code = NULL, authority_message = NULL, last_error = 'waiting for the earlier record ' || head.id || ', which needs attention',
          updated_at = now()
        FROM head
        WHERE i.chain_id = ${chainId} AND i.chain_seq > head.chain_seq
          AND (${opts.onlyInvoiceId ?? null}::uuid IS NULL OR i.id = ${opts.onlyInvoiceId ?? null}::uuid)
          AND (i.authority_status = 'queued' OR (${opts.alsoRetrying} AND i.authority_status = 'error' AND i.next_attempt_at IS NOT NULL))
        RETURNING i.id, i.last_error
      ), events AS (
        INSERT INTO invoice_status_events (invoice_id, status, message) SELECT id, 'error', last_error FROM moved
      )
      SELECT id FROM moved`),
  );
  return held.map((h) => h.id);
}
