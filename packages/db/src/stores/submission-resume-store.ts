import { sql } from 'drizzle-orm';
import { statusesMovableTo, type StatusActor } from '@vf/core';
import type { DbOrTx } from '../client';

/** A record put back in the queue: its submission job must be enqueued (again) after the commit. */
export interface ResumedRecord {
  invoiceId: string;
  chainId: string;
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * Puts records in `error` back in the queue, unchanged (same record, same huella: a resend is never a new chain
 * link), with one history event each. `by` must be allowed to make the move by the statuses module.
 */
async function resume(tx: DbOrTx, by: StatusActor, note: string, where: ReturnType<typeof sql>): Promise<ResumedRecord[]> {
  const from = statusesMovableTo('queued', by);
  const moved = rowsOf<{ id: string; chain_id: string }>(
    await tx.execute(sql`
      WITH moved AS (
        UPDATE invoices i SET authority_status = 'queued', next_attempt_at = NULL, error_cause = NULL, last_error = NULL, updated_at = now()
        WHERE i.authority_status = ANY(${sql.param(from)}::text[]) AND ${where}
        RETURNING i.id, i.chain_id
      ), events AS (
        INSERT INTO invoice_status_events (invoice_id, status, message) SELECT id, 'queued', ${note} FROM moved
      )
      SELECT id, chain_id FROM moved`),
  );
  return moved.map((m) => ({ invoiceId: m.id, chainId: m.chain_id }));
}

export type ResendAttempt =
  { kind: 'not_found' } | { kind: 'not_resendable'; status: string } | { kind: 'resumed'; records: ResumedRecord[] };

/**
 * The user asks to resend an invoice in `error`. Records go in chain order, so every record of its chain in `error`
 * is resumed with it: the earlier ones must go first, the later ones only waited for it.
 * Locks the invoice's latest record so two resends cannot interleave.
 */
export async function resendInvoice(tx: DbOrTx, accountId: string, invoiceId: string): Promise<ResendAttempt> {
  const [row] = rowsOf<{ chain_id: string; authority_status: string }>(
    // The invoice's latest record is the one a resend is about (a correction or anulación after the first).
    await tx.execute(sql`
      SELECT i.chain_id, i.authority_status FROM invoices f JOIN invoices i ON i.id = f.current_record_id
      WHERE f.id = ${invoiceId} AND f.account_id = ${accountId} FOR UPDATE OF i`),
  );
  if (!row) return { kind: 'not_found' };
  if (!statusesMovableTo('queued', 'user').includes(row.authority_status as never))
    return { kind: 'not_resendable', status: row.authority_status };
  const records = await resume(tx, 'user', 'resent on request', sql`i.chain_id = ${row.chain_id}`);
  return { kind: 'resumed', records };
}

/**
 * Records in `error` waiting for the user whose taxpayer changed after the error (a new certificate, a corrected NIF
 * or name): they may go through now, so they go back in the queue. Run by the reconciler.
 */
export async function resumeAfterTaxpayerChange(tx: DbOrTx): Promise<ResumedRecord[]> {
  return resume(
    tx,
    'reconciler',
    "the taxpayer's certificate or data changed: sent again",
    sql`i.next_attempt_at IS NULL AND EXISTS (SELECT 1 FROM taxpayers t WHERE t.id = i.taxpayer_id AND t.updated_at > i.updated_at)`,
  );
}
