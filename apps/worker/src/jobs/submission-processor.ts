import { randomUUID } from 'node:crypto';
import { DelayedError, type Job, type Queue } from 'bullmq';
import type { Logger } from 'pino';
import { isScheduledForSending } from '@vf/core';
import type { AuthorityStatus, Db } from '@vf/db';
import type { SubmissionJobData } from '@vf/queue';
import { acquireSendLease, getSendState } from '@vf/db/src/stores/send-state-store';
import { getSubmissionTarget } from '@vf/db/src/stores/submission-batch-store';
import { holdRecordsBehind } from '@vf/db/src/stores/submission-record-store';
import { wakeJitterMs } from '../sending/backoff-policy';
import type { ChainSender } from '../sending/chain-sender';
import { handOver } from './hand-over';

/** Floor for a job's next look, so a job never spins. */
const MIN_WAKE_MS = 100;
/** After an unexpected failure (database unreachable, a bug), look again after this long rather than fail the job. */
const AFTER_FAILURE_MS = 5_000;
/** While shutting down: hand the job back quickly so another process takes it. */
const WHILE_STOPPING_MS = 1_000;

export interface SubmissionProcessorDeps {
  db: Db;
  queue: Queue<SubmissionJobData>;
  sender: ChainSender;
  logger: Logger;
  workerId: string;
  leaseTtlMs: number;
  stopping: () => boolean;
  random?: () => number;
}

export type SubmissionJobResult = { status: AuthorityStatus | 'missing' };

/**
 * One job per chain record, alive while the workers have something to do for it (statuses module:
 * isScheduledForSending): waiting, or in `error` with a next attempt. A resend or a taxpayer change enqueues it
 * again. Each run either becomes its chain's sender (and sends whatever the chain has waiting, not only this record)
 * or puts the job back to sleep until the next moment a send could be allowed on the chain: when the other sender's
 * lease expires, or when the chain's flow control opens again. A taxpayer's sandbox and production chains never wait
 * for each other.
 */
export function createSubmissionProcessor(deps: SubmissionProcessorDeps) {
  const random = deps.random ?? Math.random;

  async function sleepUntil(job: Job<SubmissionJobData>, token: string | undefined, at: number): Promise<never> {
    const base = Math.max(at, Date.now() + MIN_WAKE_MS);
    const readyAt = base + wakeJitterMs(base - Date.now(), random);
    await job.updateData({ ...job.data, readyAt });
    await job.moveToDelayed(readyAt, token);
    throw new DelayedError();
  }

  async function attempt(job: Job<SubmissionJobData>, token: string | undefined): Promise<SubmissionJobResult> {
    const { invoiceId } = job.data;
    const target = await getSubmissionTarget(deps.db, invoiceId);
    if (!target) return { status: 'missing' };
    if (!isScheduledForSending(target)) return { status: target.status };
    if (deps.stopping()) return sleepUntil(job, token, Date.now() + WHILE_STOPPING_MS);
    // An earlier record of the chain waits for the user: this one waits with it (the job ends; a resume re-enqueues it).
    if (target.status === 'queued' && (await holdRecordsBehind(deps.db, target.chainId, { alsoRetrying: false, onlyInvoiceId: invoiceId })).length > 0) {
      return { status: 'error' };
    }

    const owner = `${deps.workerId}/${randomUUID()}`;
    const lease = await acquireSendLease(deps.db, target.chainId, owner, deps.leaseTtlMs);
    if (!lease.acquired) return sleepUntil(job, token, lease.retryAt.getTime());

    await deps.sender.run(target.chainId, owner);
    await handOver(deps.db, deps.queue, target.chainId, invoiceId, random);
    const after = await getSubmissionTarget(deps.db, invoiceId);
    if (!after || !isScheduledForSending(after)) return { status: after?.status ?? 'missing' };
    const state = await getSendState(deps.db, target.chainId);
    return sleepUntil(job, token, state?.nextSendAt.getTime() ?? Date.now());
  }

  return async function processSubmission(job: Job<SubmissionJobData>, token?: string): Promise<SubmissionJobResult> {
    try {
      return await attempt(job, token);
    } catch (err) {
      if (err instanceof DelayedError) throw err;
      deps.logger.error({ err, invoiceId: job.data.invoiceId, chainId: job.data.chainId }, 'submission attempt failed; will look again');
      return sleepUntil(job, token, Date.now() + AFTER_FAILURE_MS);
    }
  };
}
