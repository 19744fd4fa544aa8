import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { Database } from '@vf/db';
import { databaseStore, remissionStore, submissionResumeStore } from '@vf/db';
import { reconcileStranded, wakeRemissionSenders, type RemissionJobData, type SubmissionJobData } from '@vf/queue';

// Arbitrary constant identifying "the reconciler" among PostgreSQL advisory locks.
const RECONCILE_LOCK_KEY = 0x76660001;

export const RECONCILE_SCHEDULER_ID = 'reconcile-stranded';

/**
 * Runs the reconciler unless another process is already running it, so that a slow run overlapping the next tick of
 * the scheduler is skipped, not doubled. The lock is transaction-scoped, held by a transaction of its own that stays
 * open for the run: nothing outlives a transaction on its connection, so it holds behind a transaction-pooling proxy
 * too. First it puts back in the queue the records in `error` whose taxpayer changed since (a new certificate,
 * corrected data), committed before any job can look for them; then it gives every record the workers still have to
 * send a live job, and every remission still sending its own (adding a job that exists adds nothing).
 */
export async function reconcileExclusively(
  database: Database,
  queue: Queue<SubmissionJobData>,
  logger: Logger,
  remissions?: Queue<RemissionJobData>,
): Promise<number | 'skipped'> {
  return database.db.transaction(async (lock) => {
    if (!(await databaseStore.tryTransactionLock(lock, RECONCILE_LOCK_KEY))) return 'skipped';
    const resumed = await database.db.transaction((tx) => submissionResumeStore.resumeAfterTaxpayerChange(tx));
    if (resumed.length > 0) logger.info({ resumed: resumed.length }, "records in error resumed after their taxpayer's data changed");
    const requeued = await reconcileStranded(database.db, queue);
    if (requeued > 0) logger.info({ chains: requeued }, 'stranded chains given their job again');
    if (remissions) await wakeRemissionSenders(remissions, await remissionStore.sending(database.db));
    return requeued;
  });
}

/**
 * Keeps the periodic reconciliation scheduled. The schedule lives only in Redis, so a FLUSHALL or a Redis that
 * restarts empty loses it; every worker checks on its own timer and re-creates it (reconciling at once), so waiting
 * invoices move again within one interval of Redis coming back, without any process restarting.
 */
export async function ensureReconcileSchedule(deps: {
  database: Database;
  submission: Queue<SubmissionJobData>;
  remission?: Queue<RemissionJobData>;
  maintenance: Queue;
  everyMs: number;
  logger: Logger;
}): Promise<'present' | 'recreated'> {
  if (await deps.maintenance.getJobScheduler(RECONCILE_SCHEDULER_ID)) return 'present';
  // Idempotent across processes: every worker upserts the same scheduler, BullMQ keeps one.
  await deps.maintenance.upsertJobScheduler(RECONCILE_SCHEDULER_ID, { every: deps.everyMs }, { name: RECONCILE_SCHEDULER_ID });
  await reconcileExclusively(deps.database, deps.submission, deps.logger, deps.remission);
  return 'recreated';
}
