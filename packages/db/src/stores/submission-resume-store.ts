import { and, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { statusesMovableTo, type StatusActor } from '@vf/core';
import type { DbOrTx } from '../client';
import { invoices } from '../schema';
import { literalText } from './literal-text';
import { rawRows } from './raw-rows';

/** A record put back in the queue: its submission job must be enqueued (again) after the commit. */
export interface ResumedRecord {
  invoiceId: string;
  chainId: string;
}

/**
 * Puts records in `error` back in the queue, unchanged (same record, same huella: a resend is never a new chain
 * link), with one history event each. `by` must be allowed to make the move by the statuses module.
 */
async function resume(tx: DbOrTx, by: StatusActor, note: string, where: SQL): Promise<ResumedRecord[]> {
  const from = statusesMovableTo('queued', by);
  // Raw: a data-modifying CTE that moves the records and writes their history events in one statement. The statuses
  // are literals, which a generic plan matches against the chain index of records not at rest (migration 0036).
  const moved = await rawRows<{ id: string; chainId: string }>(
    tx,
    sql`
      WITH moved AS (
        UPDATE invoices i SET authority_status = 'queued', next_attempt_at = NULL, error_cause = NULL, last_error = NULL, updated_at = now()
        WHERE i.authority_status IN (${sql.join(from.map(literalText), sql`, `)}) AND ${where}
        RETURNING i.id, i.chain_id
      ), events AS (
        INSERT INTO invoice_status_events (invoice_id, status, message) SELECT id, 'queued', ${note} FROM moved
      )
      SELECT id, chain_id FROM moved`,
  );
  return moved.map((m) => ({ invoiceId: m.id, chainId: m.chainId }));
}

export type ResendAttempt =
  { kind: 'not_found' } | { kind: 'not_resendable'; status: string } | { kind: 'resumed'; records: ResumedRecord[] };

/** Records in `error` put back in the queue, unchanged, by the user or the reconciler. */
export const submissionResumeStore = {
  /**
   * The user asks to resend an invoice in `error`. Records go in chain order, so every record of its chain in `error`
   * is resumed with it: the earlier ones must go first, the later ones only waited for it.
   * Locks the invoice's latest record so two resends cannot interleave.
   */
  async resendInvoice(tx: DbOrTx, accountId: string, invoiceId: string): Promise<ResendAttempt> {
    const first = alias(invoices, 'f');
    const latest = alias(invoices, 'i');
    // The invoice's latest record is the one a resend is about (a correction or anulación after the first).
    const [row] = await tx
      .select({ chainId: latest.chainId, authorityStatus: latest.authorityStatus })
      .from(first)
      .innerJoin(latest, eq(latest.id, first.currentRecordId))
      .where(and(eq(first.id, invoiceId), eq(first.accountId, accountId)))
      .for('update', { of: latest });
    if (!row) return { kind: 'not_found' };
    if (!statusesMovableTo('queued', 'user').includes(row.authorityStatus)) return { kind: 'not_resendable', status: row.authorityStatus };
    const records = await resume(tx, 'user', 'resent on request', sql`i.chain_id = ${row.chainId}`);
    return { kind: 'resumed', records };
  },

  /**
   * Records in `error` waiting for the user whose taxpayer changed after the error (a new certificate, a corrected NIF
   * or name): they may go through now, so they go back in the queue. Run by the reconciler.
   */
  /**
   * An operator resumed a certificate the authority had suspended (4141): the chains stopped by it go back in the
   * queue, the records behind the stopped one with it. A chain still under another stopped certificate stops again at
   * its next send.
   */
  resumeAfterSenderStop(tx: DbOrTx): Promise<ResumedRecord[]> {
    return resume(
      tx,
      'reconciler',
      'sending resumed by an operator after the access suspension (4141): sent again',
      sql`i.next_attempt_at IS NULL AND i.chain_id IN (
        SELECT s.chain_id FROM invoices s
        WHERE s.authority_status = 'error' AND (s.error_cause = 'sender_stopped' OR s.authority_code = 4141))`,
    );
  },

  resumeAfterTaxpayerChange(tx: DbOrTx): Promise<ResumedRecord[]> {
    return resume(
      tx,
      'reconciler',
      "the taxpayer's certificate or data changed: sent again",
      sql`i.next_attempt_at IS NULL AND EXISTS (SELECT 1 FROM taxpayers t WHERE t.id = i.taxpayer_id AND t.updated_at > i.updated_at)`,
    );
  },
};
