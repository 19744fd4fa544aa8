import type { Server } from 'node:http';
import IORedis from 'ioredis';
import { loadConfig } from '@vf/config';
import { createDatabase, migrateDatabase } from '@vf/db';
import { createQueues } from '@vf/queue';
import { createApp } from './create-app';
import { createLogger as createServiceLogger } from '@vf/logger';
import { createLogger } from './http/create-logger';
import { withTimeout } from './shared/with-timeout';

const SHUTDOWN_STEP_MS = 10_000;
const DATABASE_CONNECT_TIMEOUT_MS = 5_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  await migrateDatabase(config.databaseUrl);
  const database = createDatabase(config.databaseUrl);
  // A connection dropped by the server (restart, failover, pg_terminate_backend) must not end the process:
  // requests meanwhile get 503, and the pool opens fresh connections once PostgreSQL is back.
  database.pool.on('error', (err) => logger.warn({ err }, 'idle database connection lost'));
  // A PostgreSQL that does not answer (rather than refusing) costs a request 5 s and a 503, not a hang.
  database.pool.options.connectionTimeoutMillis = DATABASE_CONNECT_TIMEOUT_MS;
  // Producer connection: fail fast when Redis is down instead of queueing commands forever,
  // so a registration never hangs on Redis (the reconciler enqueues what was missed).
  const redis = new IORedis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', (err) => logger.warn({ err }, 'redis connection error'));
  const queues = createQueues(redis, config.queuePrefix);
  // An 'error' event without a listener would crash the process; an outage is logged and outlived instead.
  for (const queue of [queues.submission, queues.maintenance]) queue.on('error', (err) => logger.warn({ err }, 'queue error'));

  const app = createApp({ db: database.db, redis, queues, logger, config });
  const server: Server = app.listen(config.port, () => logger.info({ port: config.port }, 'api listening'));

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const step = async (name: string, work: () => Promise<unknown>) => {
      try {
        await withTimeout(work(), SHUTDOWN_STEP_MS, name);
      } catch (err) {
        logger.error({ err }, `shutdown step failed: ${name}`);
      }
    };
    // Order matters: no new requests, then no more enqueues, then the pool the requests used.
    await step('stop http', () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))));
    await step('close queues', () => queues.close());
    await step('close redis', () => redis.quit());
    await step('close database', () => database.close());
    logger.flush();
    process.exit(0);
  };
  // Express catches route rejections; anything else that slips out is logged rather than taking every request down.
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  // Before the configuration is read there is no configured logger yet: the shared one still redacts and
  // reduces database errors to their code.
  createServiceLogger({ service: 'api' }).fatal({ err }, 'api failed to start');
  process.exit(1);
});
