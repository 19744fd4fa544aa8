import { readFileSync } from 'node:fs';
import { Worker } from 'bullmq';
import type { Logger } from 'pino';
import { ClientCertificates, redactUrl, SoapTransport } from '@vf/authority-client';
import type { AppConfig } from '@vf/config';
import { createDatabase, ensureCurrentSchema, schemaStatus, senderStopStore, submissionBatchStore } from '@vf/db';
import { inspectDependencies, Readiness, waitFor } from '@vf/lifecycle';
import { countStoppedCertificatesWith, enableDefaultMetrics, workerRegistry } from '@vf/metrics';
import {
  closeRedis,
  createQueues,
  createRedis,
  MAINTENANCE_QUEUE,
  pingRedis,
  SUBMISSION_QUEUE,
  wakeChainSender,
  type SubmissionJobData,
} from '@vf/queue';
import { ensureReconcileSchedule, reconcileExclusively } from './jobs/reconcile-processor';
import { createSendChainJob, type SendChainJobResult } from './jobs/send-chain-job';
import { startWorkerListener, type WorkerListener } from './listener/worker-listener';
import { createWebhookDispatcher } from './webhooks/webhook-dispatcher';

export interface WorkerRuntime {
  workerId: string;
  /**
   * Opens the process's listener (WORKER_PORT), waits for PostgreSQL with the current schema (migrating first with
   * MIGRATE_ON_START) and for Redis, then reconciles once, schedules the periodic reconciliation and starts taking
   * jobs. A close() while it waits makes it reject.
   */
  start(): Promise<void>;
  /** Graceful: takes no new job, lets the message in hand finish (or its lease go), then closes every connection. */
  close(): Promise<void>;
}

export interface WorkerRuntimeOptions {
  config: AppConfig;
  logger: Logger;
}

/** The worker's composition root: one per process (or per in-process test). */
export function createWorkerRuntime({ config, logger }: WorkerRuntimeOptions): WorkerRuntime {
  const { id: workerId, leaseTtlMs } = config.worker;
  let stopping = false;
  const isStopping = () => stopping;
  const starting = new AbortController();

  const serverCaPem =
    config.authority.mode === 'simulator' && config.authority.simulatorCaPath
      ? readFileSync(config.authority.simulatorCaPath, 'utf8')
      : undefined;
  const database = createDatabase(config.databaseUrl, { max: config.sender.workerConcurrency + 4, poolMode: config.databasePoolMode });
  // An idle connection dropped by the server (restart, failover) must not crash the process; the next query reconnects.
  database.pool.on('error', (err) => logger.warn({ err }, 'idle database connection lost'));
  const redis = createRedis(config, 'worker');
  const queues = createQueues(redis, config.queuePrefix);
  // Without listeners these 'error' events would be unhandled; an outage is logged and outlived instead.
  redis.on('error', (err) => logger.warn({ err }, 'redis connection error'));
  for (const queue of [queues.submission, queues.maintenance]) queue.on('error', (err) => logger.warn({ err }, 'queue error'));
  const certificates = new ClientCertificates({
    masterKey: config.masterKey,
    platformCertificate: config.platformCertificate,
    serverCaPem,
    egressProxy: config.authority.egressProxy,
  });
  const transport = new SoapTransport({ timeoutMs: config.authority.requestTimeoutMs });
  const sendChainJob = createSendChainJob({
    db: database.db,
    config,
    certificates,
    transport,
    logger,
    workerId,
    leaseTtlMs,
    stopping: isStopping,
  });

  const webhooks = createWebhookDispatcher({ db: database.db, connection: redis, config, logger });

  let submissionWorker: Worker<SubmissionJobData, SendChainJobResult> | undefined;
  let maintenanceWorker: Worker | undefined;
  let listener: WorkerListener | undefined;
  // A worker needs Redis to take jobs: unlike the API's, its readiness depends on it.
  const readiness = new Readiness(
    inspectDependencies({
      schema: () => schemaStatus(database.pool),
      redis: () => pingRedis(redis),
      redisRequired: true,
      timeoutMs: 2_000,
    }),
  );
  let closed: Promise<void> | undefined;
  let scheduleTimer: NodeJS.Timeout | undefined;
  let checkingSchedule = false;
  const scheduleDeps = {
    database,
    submission: queues.submission,
    maintenance: queues.maintenance,
    everyMs: config.reconcileIntervalMs,
    logger,
  };

  async function checkSchedule(): Promise<void> {
    // While Redis is down the check waits for it; ticks meanwhile are skipped, not stacked.
    if (checkingSchedule || stopping) return;
    checkingSchedule = true;
    try {
      if ((await ensureReconcileSchedule(scheduleDeps)) === 'recreated')
        logger.warn('reconcile schedule was missing (Redis flushed or restarted empty): re-created');
    } catch (err) {
      logger.warn({ err }, 'reconcile schedule check failed; retrying next interval');
    } finally {
      checkingSchedule = false;
    }
  }

  async function shutdown(): Promise<void> {
    stopping = true;
    starting.abort();
    readiness.stopping();
    clearInterval(scheduleTimer);
    await maintenanceWorker?.close();
    await submissionWorker?.close();
    await webhooks.close();
    await listener?.close();
    await queues.close();
    certificates.close();
    await database.close();
    await closeRedis(redis);
    logger.info('worker stopped');
  }

  /** Waits for what the worker needs, logging each failed try; rejects when told to stop meanwhile. */
  async function dependencies(): Promise<void> {
    const wait = { logger, signal: starting.signal };
    await waitFor(
      'PostgreSQL with the current schema',
      () => ensureCurrentSchema({ url: config.databaseUrl, pool: database.pool, migrate: config.migrateOnStart }),
      wait,
    );
    await waitFor('Redis', () => pingRedis(redis), wait);
  }

  return {
    workerId,
    async start() {
      if (config.worker.port) {
        // Metrics are for the operator only: without the admin credentials the listener serves the probes alone.
        const metrics = config.admin
          ? {
              registry: workerRegistry,
              credentials: config.admin,
              onError: (err: unknown) => logger.error({ err }, 'metrics could not be rendered'),
            }
          : undefined;
        if (metrics) {
          enableDefaultMetrics(workerRegistry);
          countStoppedCertificatesWith(async () => (await senderStopStore.list(database.db)).length);
        }
        listener = await startWorkerListener({ port: config.worker.port, readiness, metrics });
        logger.info({ port: listener.port, metrics: Boolean(metrics) }, 'worker listening (health, metrics)');
      }
      await dependencies();
      if (stopping) throw new Error('worker stopped while starting');
      // A missing schedule is re-created with a reconciliation of its own; otherwise reconcile once now.
      if ((await ensureReconcileSchedule(scheduleDeps)) === 'present') await reconcileExclusively(database, queues.submission, logger);
      scheduleTimer = setInterval(() => void checkSchedule(), config.reconcileIntervalMs);
      submissionWorker = new Worker<SubmissionJobData, SendChainJobResult>(SUBMISSION_QUEUE, sendChainJob, {
        connection: redis,
        prefix: config.queuePrefix,
        concurrency: config.sender.workerConcurrency,
        // A killed process leaves its chains' jobs stalled: they come back once their lock expires, after as long as the
        // chain's send lease (which fences the dead sender's writes anyway), and PostgreSQL says what is left to do.
        lockDuration: leaseTtlMs,
        stalledInterval: leaseTtlMs,
        maxStalledCount: 10,
      });
      maintenanceWorker = new Worker(MAINTENANCE_QUEUE, () => reconcileExclusively(database, queues.submission, logger), {
        connection: redis,
        prefix: config.queuePrefix,
        concurrency: 1,
      });
      await webhooks.start();
      // A record registered while the job was ending found the job still there and added nothing: looking again once
      // the job is gone closes that window (a record stored after this look adds a new job itself).
      submissionWorker.on('completed', (job) => {
        const { chainId } = job.data;
        submissionBatchStore
          .chainHasWork(database.db, chainId)
          .then((work) => (work ? wakeChainSender(queues, chainId) : undefined))
          .catch((err: unknown) =>
            logger.warn({ err, chainId }, 'could not look for records registered while the job ended; the reconciler will'),
          );
      });
      for (const w of [submissionWorker, maintenanceWorker]) w.on('error', (err) => logger.error({ err }, 'queue worker error'));
      readiness.serving();
      const { egressProxy } = config.authority;
      logger.info(
        {
          concurrency: config.sender.workerConcurrency,
          mode: config.authority.mode,
          leaseTtlMs,
          ...(egressProxy && { egressProxy: redactUrl(egressProxy.url), noProxy: egressProxy.noProxy }),
        },
        'worker started',
      );
    },
    close() {
      closed ??= shutdown();
      return closed;
    },
  };
}
