import type { Queue } from 'bullmq';
import { and, asc, gt, inArray } from 'drizzle-orm';
import { invoices, type DbOrTx } from '@vf/db';
import { enqueueSubmission, submissionJobId, type SubmissionJobData } from './queues';

const PAGE = 500;

/**
 * PostgreSQL is the system of record: every invoice still waiting for the authority must have a live
 * submission job. Re-enqueues those whose job is missing (Redis flushed, enqueue failed after commit)
 * or finished without moving the invoice on. Returns how many were re-enqueued.
 */
export async function reconcileStranded(db: DbOrTx, queue: Queue<SubmissionJobData>): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let requeued = 0;
  for (;;) {
    const page = await db
      .select({ id: invoices.id, taxpayerId: invoices.taxpayerId })
      .from(invoices)
      .where(and(inArray(invoices.authorityStatus, ['queued', 'sent']), gt(invoices.id, after)))
      .orderBy(asc(invoices.id))
      .limit(PAGE);
    for (const row of page) {
      const jobId = submissionJobId(row.id);
      const state = await queue.getJobState(jobId);
      if (state === 'completed' || state === 'failed') await queue.remove(jobId);
      if (state === 'completed' || state === 'failed' || state === 'unknown') {
        await enqueueSubmission(queue, { invoiceId: row.id, taxpayerId: row.taxpayerId });
        requeued += 1;
      }
    }
    if (page.length < PAGE) return requeued;
    after = page[page.length - 1].id;
  }
}
