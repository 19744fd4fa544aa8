import type { Queue } from 'bullmq';
import { and, asc, eq, gt, inArray, isNotNull, or } from 'drizzle-orm';
import { WAITING_STATUSES } from '@vf/core';
import { invoices, type DbOrTx } from '@vf/db';
import { requeueSubmission, type SubmissionJobData } from './queues';

const PAGE = 500;

/**
 * PostgreSQL is the system of record: every invoice the workers still have to send (waiting, or in `error` with a
 * next attempt) must have a live submission job. Re-enqueues those whose job is missing (Redis flushed, enqueue
 * failed after commit) or finished without moving the invoice on. Returns how many were re-enqueued.
 */
export async function reconcileStranded(db: DbOrTx, queue: Queue<SubmissionJobData>): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let requeued = 0;
  const scheduled = or(inArray(invoices.authorityStatus, [...WAITING_STATUSES]), and(eq(invoices.authorityStatus, 'error'), isNotNull(invoices.nextAttemptAt)));
  for (;;) {
    const page = await db
      .select({ id: invoices.id, chainId: invoices.chainId })
      .from(invoices)
      .where(and(scheduled, gt(invoices.id, after)))
      .orderBy(asc(invoices.id))
      .limit(PAGE);
    for (const row of page) {
      if (await requeueSubmission(queue, { invoiceId: row.id, chainId: row.chainId })) requeued += 1;
    }
    if (page.length < PAGE) return requeued;
    after = page[page.length - 1].id;
  }
}
