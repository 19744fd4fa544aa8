import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { ClientCertificates } from '@vf/authority-client';
import type { AppConfig } from '@vf/config';
import { createDatabase, type Database } from '@vf/db';
import { logRepeatsSparingly } from '@vf/logger';
import { closeRedis, createQueues, createRedis, type Queues, type RedisConnection } from '@vf/queue';

export interface WorkerConnections {
  database: Database;
  redis: RedisConnection;
  queues: Queues;
  certificates: ClientCertificates;
  /**
   * The certificates sandbox scenario records go with, to the simulator beside the service: the same ones in simulator
   * mode; in aeat mode the same keys trusting that simulator's CA, and never through the egress proxy (the simulator is
   * beside the service, not on the internet).
   */
  scenarioCertificates: ClientCertificates;
  /** The listener of every BullMQ queue and worker's 'error' event (`source` names which). */
  onQueueError(source: string): (err: unknown) => void;
  /** Closes the pool and Redis without waiting on a server that does not answer. */
  close(): Promise<void>;
}

/** What the worker talks to: PostgreSQL, Redis and its queues, and the certificates it sends under. */
export function openWorkerConnections(config: AppConfig, logger: Logger): WorkerConnections {
  const serverCaPem =
    config.authority.mode === 'simulator' && config.authority.simulatorCaPath
      ? readFileSync(config.authority.simulatorCaPath, 'utf8')
      : undefined;
  const database = createDatabase(config.databaseUrl, { max: config.sender.workerConcurrency + 4, poolMode: config.databasePoolMode });
  // While Redis is away each connection fails every reconnection, and each queue and worker repeats it.
  const log = logRepeatsSparingly(logger);
  // An idle connection dropped by the server (restart, failover) must not crash the process; the next query reconnects.
  database.pool.on('error', (err) => log('warn', { err }, 'idle database connection lost'));
  const redis = createRedis(config, 'worker');
  const queues = createQueues(redis, config.queuePrefix);
  const onQueueError = (source: string) => (err: unknown) => log('warn', { err, source }, 'redis connection error');
  // Without listeners these 'error' events would be unhandled; an outage is logged and outlived instead.
  redis.on('error', onQueueError('connection'));
  queues.submission.on('error', onQueueError('submission queue'));
  queues.maintenance.on('error', onQueueError('maintenance queue'));
  queues.taxIdLists.on('error', onQueueError('tax ID list queue'));
  const certificates = new ClientCertificates({
    masterKey: config.masterKey,
    platformCertificate: config.platformCertificate,
    serverCaPem,
    egressProxy: config.authority.egressProxy,
  });
  const scenarioCaPath = config.authority.scenarioSimulatorCaPath;
  const scenarioCertificates =
    config.authority.mode === 'simulator'
      ? certificates
      : new ClientCertificates({
          masterKey: config.masterKey,
          platformCertificate: config.platformCertificate,
          serverCaPem: scenarioCaPath ? readScenarioCa(scenarioCaPath, logger) : undefined,
        });
  return {
    database,
    redis,
    queues,
    certificates,
    scenarioCertificates,
    onQueueError,
    async close() {
      await queues.close();
      certificates.close();
      if (scenarioCertificates !== certificates) scenarioCertificates.close();
      await database.close();
      await closeRedis(redis);
    },
  };
}

/** The scenario simulator's CA; a missing file only leaves scenario records unsent (their sends fail), never the worker. */
function readScenarioCa(path: string, logger: Logger): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    logger.warn({ err, path }, 'the scenario simulator CA cannot be read: sandbox scenario records will not get through');
    return undefined;
  }
}
