import type { Logger } from 'pino';
import type { AppConfig } from '@vf/config';
import { senderStopStore, type Database } from '@vf/db';
import type { Readiness } from '@vf/lifecycle';
import { countStoppedCertificatesWith, enableDefaultMetrics, workerRegistry } from '@vf/metrics';
import { startWorkerListener, type WorkerListener } from '../listener/worker-listener';

/** The listener on WORKER_PORT: probes, and metrics for the operator only (without admin credentials, none). */
export async function openWorkerListener(deps: {
  port: number;
  config: AppConfig;
  logger: Logger;
  database: Database;
  readiness: Readiness;
}): Promise<WorkerListener> {
  const { config, logger, database } = deps;
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
  const listener = await startWorkerListener({ port: deps.port, readiness: deps.readiness, metrics });
  logger.info({ port: listener.port, metrics: Boolean(metrics) }, 'worker listening (health, metrics)');
  return listener;
}
