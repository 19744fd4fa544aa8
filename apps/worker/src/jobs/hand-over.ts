import type { Queue } from 'bullmq';
import type { Db } from '@vf/db';
import { getSendState } from '@vf/db/src/stores/send-state-store';
import { firstWaitingInvoiceId } from '@vf/db/src/stores/submission-batch-store';
import { submissionJobId, type SubmissionJobData } from '@vf/queue';
import { wakeJitterMs } from '../sending/backoff-policy';

/**
 * A sender that releases a chain's lease with records still waiting makes sure someone comes back for them exactly
 * when the chain's flow control allows: it reschedules the job of the chain's next waiting record to that moment. The
 * other waiting jobs can then sleep on their own, more pessimistic, times without delaying the chain's records.
 */
export async function handOver(db: Db, queue: Queue<SubmissionJobData>, chainId: string, currentInvoiceId: string, random: () => number): Promise<void> {
  const [state, nextId] = await Promise.all([getSendState(db, chainId), firstWaitingInvoiceId(db, chainId)]);
  if (!state || !nextId || nextId === currentInvoiceId) return;
  const job = await queue.getJob(submissionJobId(chainId, nextId));
  // No job: the reconciler restores it. Not delayed: it is about to run, or running, anyway.
  if (!job || !(await job.isDelayed())) return;
  const delay = Math.max(0, state.nextSendAt.getTime() - Date.now());
  const wakeIn = delay + wakeJitterMs(delay, random);
  await job
    .changeDelay(wakeIn)
    .then(() => job.updateData({ ...job.data, readyAt: Date.now() + wakeIn }))
    .catch(() => undefined);
}
