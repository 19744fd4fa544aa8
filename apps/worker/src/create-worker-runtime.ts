import type { Logger } from 'pino';
import { SoapTransport } from '@vf/authority-client';
import type { AppConfig } from '@vf/config';
import { schemaStatus } from '@vf/db';
import { inspectDependencies, Readiness } from '@vf/lifecycle';
import { pingRedis } from '@vf/queue';
import { ensureReconcileSchedule, reconcileExclusively } from './jobs/reconcile-processor';
import { createSendChainJob } from './jobs/send-chain-job';
import { createSendRemissionJob } from './remissions/send-remission-job';
import type { WorkerListener } from './listener/worker-listener';
import { checkReconcileSchedule } from './runtime/reconcile-schedule-timer';
import { closeQueueWorkers } from './runtime/close-queue-workers';
import { finishJobsInHand } from './runtime/finish-jobs-in-hand';
import { JobsInHand } from './runtime/jobs-in-hand';
import { logWorkerStarted } from './runtime/log-worker-started';
import { openWorkerListener } from './runtime/open-worker-listener';
import { startQueueWorkers, type QueueWorkers } from './runtime/queue-workers';
import { waitForDependencies } from './runtime/wait-for-dependencies';
import { openWorkerConnections } from './runtime/worker-connections';
import { createTaxIdListChecker } from './tax-id-lists/tax-id-list-checker';
import { summaryWriter } from './runtime/summary-timer';
import { createWebhookDispatcher } from './webhooks/webhook-dispatcher';
export interface WorkerRuntime {
  workerId: string;
  /**
   * Opens the process's listener (WORKER_PORT), waits for PostgreSQL with the current schema (migrating first with
   * MIGRATE_ON_START) and for Redis, then reconciles once, schedules the periodic reconciliation and starts taking
   * jobs. A close() while it waits makes it reject.
   */
  start(): Promise<void>;
  /**
   * Graceful: takes no new job, lets the jobs in hand finish (or gives them up once PostgreSQL is unreachable, when
   * they could not record anything), then closes every connection without waiting on a server that is away.
   */
  close(): Promise<void>;
}

export interface WorkerRuntimeOptions {
  config: AppConfig;
  logger: Logger;
}

/** A worker needs Redis to take jobs: unlike the API's, its readiness depends on it. */
function workerReadiness({ database, redis }: ReturnType<typeof openWorkerConnections>) {
  const inspect = inspectDependencies({
    schema: () => schemaStatus(database.pool),
    redis: () => pingRedis(redis),
    redisRequired: true,
    timeoutMs: 2_000,
  });
  return { inspect, readiness: new Readiness(inspect) };
}

/** What the periodic reconciliation needs: the queues whose jobs it gives back, how often, and where it logs. */
function reconcileScheduleDeps({ database, queues }: ReturnType<typeof openWorkerConnections>, config: AppConfig, logger: Logger) {
  return {
    database,
    submission: queues.submission,
    remission: queues.remission,
    maintenance: queues.maintenance,
    everyMs: config.reconcileIntervalMs,
    logger,
  };
}

/** The worker's composition root: one per process (or per in-process test). */
export function createWorkerRuntime({ config, logger }: WorkerRuntimeOptions): WorkerRuntime {
  const { id: workerId, leaseTtlMs } = config.worker;
  let stopping = false;
  const starting = new AbortController();
  const connections = openWorkerConnections(config, logger);
  const { database, redis, queues, certificates, scenarioCertificates } = connections;
  const inHand = new JobsInHand();
  const transport = new SoapTransport({ timeoutMs: config.authority.requestTimeoutMs });
  // The chains' sender and the remissions' on request share the connections, the certificates and the stop.
  const senderDeps = {
    db: database.db,
    config,
    certificates,
    scenarioCertificates,
    transport,
    logger,
    workerId,
    leaseTtlMs,
    stopping: () => stopping,
  };
  const sendChainJob = createSendChainJob(senderDeps);
  const sendRemissionJob = createSendRemissionJob(senderDeps);
  // Webhooks and tax ID lists: queues of their own, beside the chains' jobs.
  const background = { db: database.db, connection: redis, config, logger, inHand, onQueueError: connections.onQueueError };
  const webhooks = createWebhookDispatcher(background);
  const taxIdLists = createTaxIdListChecker({ ...background, queues });
  const { inspect, readiness } = workerReadiness(connections);
  const scheduleDeps = reconcileScheduleDeps(connections, config, logger);
  const summaries = summaryWriter({ db: database.db, config, logger });
  let workers: QueueWorkers | undefined;
  let listener: WorkerListener | undefined;
  let stopSchedule: (() => void) | undefined;
  let closed: Promise<void> | undefined;

  async function shutdown(): Promise<void> {
    stopping = true;
    starting.abort();
    readiness.stopping();
    stopSchedule?.();
    summaries.stop();
    const gaveUp = await finishJobsInHand(inHand, inspect, logger);
    if (!gaveUp) await summaries.beforeShutdown();
    const force = gaveUp || redis.status !== 'ready';
    await closeQueueWorkers(
      [(f) => workers?.close(f) ?? Promise.resolve(), (f) => webhooks.close(f), (f) => taxIdLists.close(f)],
      force,
      logger,
    );
    await listener?.close();
    await connections.close();
    logger.info('worker stopped');
  }

  return {
    workerId,
    async start() {
      if (config.worker.port) listener = await openWorkerListener({ port: config.worker.port, config, logger, database, readiness });
      await waitForDependencies(config, connections, logger, starting.signal);
      if (stopping) throw new Error('worker stopped while starting');
      // A missing schedule is re-created with a reconciliation of its own; otherwise reconcile once now.
      if ((await ensureReconcileSchedule(scheduleDeps)) === 'present')
        await reconcileExclusively(database, queues.submission, logger, queues.remission);
      stopSchedule = checkReconcileSchedule(scheduleDeps);
      summaries.start();
      workers = startQueueWorkers({ config, logger, connections, inHand, sendChainJob, sendRemissionJob });
      await webhooks.start();
      await taxIdLists.start();
      readiness.serving();
      logWorkerStarted(logger, config);
    },
    close() {
      closed ??= shutdown();
      return closed;
    },
  };
}
