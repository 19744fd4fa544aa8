import { Queue } from 'bullmq';
import type { RedisConnection } from './redis-connection';

/**
 * One job per chain (one NIF in one environment) while the chain has records to send: it wakes the chain's sender.
 * PostgreSQL says what to send; the job only says when to look (see the worker's chain-job processor).
 */
export const SUBMISSION_QUEUE = 'invoice-submission';
/** Periodic background work (reconciliation). */
export const MAINTENANCE_QUEUE = 'maintenance';

/** Webhook deliveries: their own queue and workers, so a slow receiver never holds up a submission. */
export const WEBHOOK_QUEUE = 'webhook-delivery';

/** One job per remission on the authority's request while it sends (`remission-<id>`); PostgreSQL holds its progress. */
export const REMISSION_QUEUE = 'requirement-remission';

export interface RemissionJobData {
  remissionId: string;
}

/** Deterministic: starting a remission's job while it exists adds nothing. */
export function remissionJobId(remissionId: string): string {
  return `remission-${remissionId}`;
}

/** Lists of tax IDs to check (POST /tax-ids/lists): one job per list, named by it; PostgreSQL holds the list. */
export const TAX_ID_LIST_QUEUE = 'tax-id-lists';

export interface TaxIdListJobData {
  listId: string;
}

/** Deterministic: a list's job added twice (by the API, then by the workers' sweep) is one job. */
export function taxIdListJobId(listId: string): string {
  return `list-${listId}`;
}

export interface SubmissionJobData {
  /** The chain whose sender the job wakes: its lease, flow control and records. */
  chainId: string;
  /**
   * When the job's last sleep ends (ms since the epoch), written as it is put to sleep: BullMQ forgets a delay once
   * the job is due, and the queue metrics need it to tell how long a ready job has waited for a worker.
   */
  readyAt?: number;
}

/** Deterministic: waking a chain whose job already exists (waiting, sleeping or running) adds nothing. */
export function chainJobId(chainId: string): string {
  return `chain-${chainId}`;
}

export interface Queues {
  /** The connection the queues use, for commands BullMQ does not make (wakeChainSenders). */
  connection: RedisConnection;
  submission: Queue<SubmissionJobData>;
  maintenance: Queue;
  remission: Queue<RemissionJobData>;
  taxIdLists: Queue<TaxIdListJobData>;
  close(): Promise<void>;
}

export function createQueues(connection: RedisConnection, prefix: string): Queues {
  const submission = new Queue<SubmissionJobData>(SUBMISSION_QUEUE, {
    connection,
    prefix,
    // A finished chain job is removed at once: the chain's next records must be able to add it again.
    defaultJobOptions: { removeOnComplete: true, removeOnFail: { age: 7 * 24 * 3600 } },
  });
  const maintenance = new Queue(MAINTENANCE_QUEUE, { connection, prefix, defaultJobOptions: { removeOnComplete: 100, removeOnFail: 100 } });
  const remission = new Queue<RemissionJobData>(REMISSION_QUEUE, {
    connection,
    prefix,
    defaultJobOptions: { removeOnComplete: true, removeOnFail: { age: 7 * 24 * 3600 } },
  });
  // Removed when finished, failed included: a list still pending is added again by the workers' sweep.
  const taxIdLists = new Queue<TaxIdListJobData>(TAX_ID_LIST_QUEUE, {
    connection,
    prefix,
    defaultJobOptions: { removeOnComplete: true, removeOnFail: true, attempts: 5, backoff: { type: 'exponential', delay: 2_000 } },
  });
  return {
    connection,
    submission,
    maintenance,
    remission,
    taxIdLists,
    async close() {
      await Promise.all([submission.close(), maintenance.close(), remission.close(), taxIdLists.close()]);
    },
  };
}

/**
 * Makes sure each chain's sender will look at its chain: adds the chains' jobs unless they exist. `full`: a full
 * message (1,000 records) now waits, which the authority lets go before its waiting time is over, so a job sleeping on
 * that waiting time is woken now.
 *
 * Most wakes find every job there already (waiting, sleeping on flow control, running), and BullMQ's add of an
 * existing job id does nothing but runs its whole script to find that out, one per chain. So one EXISTS of all the
 * jobs' keys comes first, and the adds follow only when a job is missing. It is the check the add makes, made a
 * moment earlier and still after the records were committed: a job found there either runs after them or ends before
 * the worker's look for records registered while it ended (create-worker-runtime.ts). One round trip when every job
 * exists, two otherwise; the keys share the queue prefix's hash tag, so one slot on a cluster.
 */
export async function wakeChainSenders(
  queues: Pick<Queues, 'connection' | 'submission'>,
  chains: { chainId: string; full?: boolean }[],
): Promise<void> {
  if (chains.length === 0) return;
  const queue = queues.submission;
  const existing = await queues.connection.exists(...chains.map(({ chainId }) => queue.toKey(chainJobId(chainId))));
  if (existing < chains.length)
    await queue.addBulk(chains.map(({ chainId }) => ({ name: 'send', data: { chainId }, opts: { jobId: chainJobId(chainId) } })));
  for (const { chainId } of chains.filter((c) => c.full)) {
    const job = await queue.getJob(chainJobId(chainId));
    // Not delayed: it is about to run or running, and a sender goes again at once while 1,000 records wait.
    if (job && (await job.isDelayed())) await job.promote().catch(() => undefined);
  }
}

/** wakeChainSenders for one chain. */
export function wakeChainSender(
  queues: Pick<Queues, 'connection' | 'submission'>,
  chainId: string,
  opts: { full?: boolean } = {},
): Promise<void> {
  return wakeChainSenders(queues, [{ chainId, ...opts }]);
}

/**
 * Like wakeChainSender, for a chain that may have a finished job left under its id (failed after too many stalls),
 * which would make the add a no-op: the reconciler and resends use it. Returns whether a job was added.
 */
export async function ensureChainSender(queue: Queue<SubmissionJobData>, chainId: string): Promise<boolean> {
  const jobId = chainJobId(chainId);
  const state = await queue.getJobState(jobId);
  if (state === 'completed' || state === 'failed') await queue.remove(jobId);
  else if (state !== 'unknown') return false;
  await queue.add('send', { chainId }, { jobId });
  return true;
}

/** Makes sure each remission's sender will look at it: adds the remissions' jobs unless they exist. */
export async function wakeRemissionSenders(queue: Queue<RemissionJobData>, remissionIds: string[]): Promise<void> {
  if (remissionIds.length === 0) return;
  await queue.addBulk(
    remissionIds.map((remissionId) => ({ name: 'remit', data: { remissionId }, opts: { jobId: remissionJobId(remissionId) } })),
  );
}
