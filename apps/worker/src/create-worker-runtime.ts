import { readFileSync } from 'node:fs';
import { Worker } from 'bullmq';
import type { Logger } from 'pino';
import type { AppConfig } from '@vf/config';
import { createDatabase } from '@vf/db';
import { enableDefaultMetrics, startMetricsServer, workerRegistry, type MetricsServer } from '@vf/metrics';
import { MAINTENANCE_QUEUE, SUBMISSION_QUEUE, createQueues, createRedis, type SubmissionJobData } from '@vf/queue';
import { RECONCILE_SCHEDULER_ID, reconcileExclusively } from './jobs/reconcile-processor';
import { createSubmissionProcessor, type SubmissionJobResult } from './jobs/submission-processor';
import { TaxpayerSender } from './sending/taxpayer-sender';
import { ClientCertificates } from './transport/client-certificates';
import { SoapTransport } from './transport/soap-transport';
import type { WorkerSettings } from './worker-settings';

export interface WorkerRuntime {
  workerId: string;
  /** Reconciles once, schedules the periodic reconciliation and starts taking jobs. */
  start(): Promise<void>;
  /** Graceful: takes no new job, lets the message in hand finish (or its lease go), then closes every connection. */
  close(): Promise<void>;
}

export interface WorkerRuntimeOptions {
  config: AppConfig;
  settings: WorkerSettings;
  logger: Logger;
}

/** The worker's composition root: one per process (or per in-process test). */
export function createWorkerRuntime({ config, settings, logger }: WorkerRuntimeOptions): WorkerRuntime {
  const { workerId, leaseTtlMs } = settings;
  let stopping = false;
  const isStopping = () => stopping;

  const serverCaPem = config.authority.mode === 'simulator' && config.authority.simulatorCaPath ? readFileSync(config.authority.simulatorCaPath, 'utf8') : undefined;
  const database = createDatabase(config.databaseUrl, { max: config.sender.workerConcurrency + 4 });
  // An idle connection dropped by the server (restart, failover) must not crash the process; the next query reconnects.
  database.pool.on('error', (err) => logger.warn({ err }, 'idle database connection lost'));
  const redis = createRedis(config.redisUrl);
  const queues = createQueues(redis, config.queuePrefix);
  const certificates = new ClientCertificates({ masterKey: config.masterKey, platformCertificate: config.platformCertificate, serverCaPem });
  const transport = new SoapTransport({ timeoutMs: config.authority.requestTimeoutMs });
  const sender = new TaxpayerSender({ db: database.db, config, certificates, transport, logger, workerId, leaseTtlMs, stopping: isStopping });
  const processSubmission = createSubmissionProcessor({ db: database.db, queue: queues.submission, sender, logger, workerId, leaseTtlMs, stopping: isStopping });

  let submissionWorker: Worker<SubmissionJobData, SubmissionJobResult> | undefined;
  let maintenanceWorker: Worker | undefined;
  let metricsServer: MetricsServer | undefined;
  let closed: Promise<void> | undefined;

  async function shutdown(): Promise<void> {
    stopping = true;
    await maintenanceWorker?.close();
    await submissionWorker?.close();
    await metricsServer?.close();
    await queues.close();
    certificates.close();
    await database.close();
    await redis.quit();
    logger.info('worker stopped');
  }

  return {
    workerId,
    async start() {
      await reconcileExclusively(database, queues.submission, logger);
      // Idempotent across processes: every worker upserts the same scheduler, BullMQ keeps one.
      await queues.maintenance.upsertJobScheduler(RECONCILE_SCHEDULER_ID, { every: config.reconcileIntervalMs }, { name: RECONCILE_SCHEDULER_ID });
      submissionWorker = new Worker<SubmissionJobData, SubmissionJobResult>(SUBMISSION_QUEUE, processSubmission, {
        connection: redis,
        prefix: config.queuePrefix,
        concurrency: config.sender.workerConcurrency,
        // A killed process leaves its jobs stalled; they come back, and the invoice's status decides what is left to do.
        maxStalledCount: 10,
      });
      maintenanceWorker = new Worker(MAINTENANCE_QUEUE, () => reconcileExclusively(database, queues.submission, logger), {
        connection: redis,
        prefix: config.queuePrefix,
        concurrency: 1,
      });
      for (const w of [submissionWorker, maintenanceWorker]) w.on('error', (err) => logger.error({ err }, 'queue worker error'));
      if (settings.metricsPort && config.admin) {
        enableDefaultMetrics(workerRegistry);
        metricsServer = await startMetricsServer({
          port: settings.metricsPort,
          registry: workerRegistry,
          credentials: config.admin,
          onError: (err) => logger.error({ err }, 'metrics could not be rendered'),
        });
        logger.info({ port: metricsServer.port }, 'metrics listening');
      }
      logger.info({ concurrency: config.sender.workerConcurrency, mode: config.authority.mode, leaseTtlMs }, 'worker started');
    },
    close() {
      closed ??= shutdown();
      return closed;
    },
  };
}
