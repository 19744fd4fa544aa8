import { Worker, type Processor } from 'bullmq';
import type { Logger } from 'pino';
import type { AppConfig } from '@vf/config';
import { submissionBatchStore } from '@vf/db';
import {
  MAINTENANCE_QUEUE,
  REMISSION_QUEUE,
  SUBMISSION_QUEUE,
  wakeChainSender,
  type RemissionJobData,
  type SubmissionJobData,
} from '@vf/queue';
import { reconcileExclusively } from '../jobs/reconcile-processor';
import type { SendChainJobResult } from '../jobs/send-chain-job';
import type { JobsInHand } from './jobs-in-hand';
import type { WorkerConnections } from './worker-connections';

export interface QueueWorkers {
  /**
   * Takes no new job, once the jobs in hand have ended or been given up (JobsInHand). `force` when Redis is away:
   * BullMQ's graceful close QUITs its blocking connection, which would wait for Redis to come back.
   */
  close(force: boolean): Promise<void>;
}

/** The BullMQ workers of the submission and maintenance queues, their jobs counted in `inHand`. */
export function startQueueWorkers(deps: {
  config: AppConfig;
  logger: Logger;
  connections: WorkerConnections;
  inHand: JobsInHand;
  sendChainJob: Processor<SubmissionJobData, SendChainJobResult>;
  sendRemissionJob: Processor<RemissionJobData, { remission: 'finished' }>;
}): QueueWorkers {
  const { config, logger, connections, inHand } = deps;
  const { database, queues, redis } = connections;
  const leaseTtlMs = config.worker.leaseTtlMs;
  const submission = new Worker<SubmissionJobData, SendChainJobResult>(SUBMISSION_QUEUE, inHand.track(deps.sendChainJob), {
    connection: redis,
    prefix: config.queuePrefix,
    concurrency: config.sender.workerConcurrency,
    // A killed process leaves its chains' jobs stalled: they come back once their lock expires, after as long as the
    // chain's send lease (which fences the dead sender's writes anyway), and PostgreSQL says what is left to do.
    lockDuration: leaseTtlMs,
    stalledInterval: leaseTtlMs,
    maxStalledCount: 10,
  });
  // Remissions on request are rare and a message at a time each: a couple at once per process is plenty.
  const remission = new Worker<RemissionJobData, { remission: 'finished' }>(REMISSION_QUEUE, inHand.track(deps.sendRemissionJob), {
    connection: redis,
    prefix: config.queuePrefix,
    concurrency: 2,
    lockDuration: leaseTtlMs,
    stalledInterval: leaseTtlMs,
    maxStalledCount: 10,
  });
  const reconcile = inHand.track(() => reconcileExclusively(database, queues.submission, logger, queues.remission));
  const maintenance = new Worker(MAINTENANCE_QUEUE, reconcile, { connection: redis, prefix: config.queuePrefix, concurrency: 1 });
  // A record registered while the job was ending found the job still there and added nothing: looking again once
  // the job is gone closes that window (a record stored after this look adds a new job itself).
  submission.on('completed', (job) => {
    const { chainId } = job.data;
    submissionBatchStore
      .chainHasWork(database.db, chainId)
      .then((work) => (work ? wakeChainSender(queues, chainId) : undefined))
      .catch((err: unknown) =>
        logger.warn({ err, chainId }, 'could not look for records registered while the job ended; the reconciler will'),
      );
  });
  submission.on('error', connections.onQueueError('submission worker'));
  maintenance.on('error', connections.onQueueError('maintenance worker'));
  remission.on('error', connections.onQueueError('remission worker'));
  return {
    async close(force) {
      await Promise.all([maintenance.close(force), submission.close(force), remission.close(force)]);
    },
  };
}
