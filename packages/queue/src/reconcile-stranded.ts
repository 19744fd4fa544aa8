import type { Queue } from 'bullmq';
import { sendStateStore, type DbOrTx } from '@vf/db';
import { ensureChainSender, type SubmissionJobData } from './queues';

const PAGE = 500;

/**
 * PostgreSQL is the system of record: every chain with records the workers still have to send (waiting, or in
 * `error` with a next attempt) must have a live job. Adds the job of those whose job is missing (Redis flushed, an
 * enqueue failed after commit, a worker died between finishing a job and looking again). Returns how many were added.
 */
export async function reconcileStranded(db: DbOrTx, queue: Queue<SubmissionJobData>): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let added = 0;
  for (;;) {
    const page = await sendStateStore.chainsToSend(db, after, PAGE);
    for (const chainId of page) {
      if (await ensureChainSender(queue, chainId)) added += 1;
    }
    if (page.length < PAGE) return added;
    after = page[page.length - 1];
  }
}
