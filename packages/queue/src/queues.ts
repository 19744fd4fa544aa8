import { Queue, type ConnectionOptions } from 'bullmq';
import IORedis, { type Redis } from 'ioredis';

/** One job per registered invoice; it lives while the workers have something to do for it (see @vf/core statuses). */
export const SUBMISSION_QUEUE = 'invoice-submission';
/** Periodic background work (reconciliation). */
export const MAINTENANCE_QUEUE = 'maintenance';

/** Webhook deliveries: their own queue and workers, so a slow receiver never holds up a submission. */
export const WEBHOOK_QUEUE = 'webhook-delivery';

export interface SubmissionJobData {
  invoiceId: string;
  taxpayerId: string;
  /**
   * When the job's last sleep ends (ms since the epoch), written as it is put to sleep: BullMQ forgets a delay once
   * the job is due, and the queue metrics need it to tell how long a ready job has waited for a worker.
   */
  readyAt?: number;
}

/** Deterministic: enqueueing the same invoice twice is a no-op while its job exists. */
export function submissionJobId(invoiceId: string): string {
  return `invoice-${invoiceId}`;
}

export function createRedis(url: string): Redis {
  // BullMQ requires maxRetriesPerRequest = null on connections used by workers.
  return new IORedis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
}

export interface Queues {
  submission: Queue<SubmissionJobData>;
  maintenance: Queue;
  close(): Promise<void>;
}

export function createQueues(connection: ConnectionOptions, prefix: string): Queues {
  const submission = new Queue<SubmissionJobData>(SUBMISSION_QUEUE, {
    connection,
    prefix,
    defaultJobOptions: { removeOnComplete: { age: 3600, count: 10_000 }, removeOnFail: { age: 7 * 24 * 3600 } },
  });
  const maintenance = new Queue(MAINTENANCE_QUEUE, { connection, prefix, defaultJobOptions: { removeOnComplete: 100, removeOnFail: 100 } });
  return {
    submission,
    maintenance,
    async close() {
      await Promise.all([submission.close(), maintenance.close()]);
    },
  };
}

export async function enqueueSubmission(queue: Queue<SubmissionJobData>, data: SubmissionJobData): Promise<void> {
  await queue.add('submit', data, { jobId: submissionJobId(data.invoiceId) });
}

/**
 * Enqueues the job of an invoice that went back to the queue (a resend, a resumed error): a finished job under the
 * same id would make the add a no-op, so it is removed first. A live job is left alone: it will see the new status.
 */
export async function requeueSubmission(queue: Queue<SubmissionJobData>, data: SubmissionJobData): Promise<boolean> {
  const jobId = submissionJobId(data.invoiceId);
  const state = await queue.getJobState(jobId);
  if (state === 'completed' || state === 'failed') await queue.remove(jobId);
  if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return false;
  await enqueueSubmission(queue, data);
  return true;
}
