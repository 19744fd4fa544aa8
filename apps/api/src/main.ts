import type { Server } from 'node:http';
import type { Express } from 'express';
import { loadConfig } from '@vf/config';
import { createDatabase, ensureCurrentSchema, schemaStatus } from '@vf/db';
import { inspectDependencies, Readiness, stopOnSignals, waitFor } from '@vf/lifecycle';
import { createLogger as createServiceLogger, logRepeatsSparingly, routeProcessOutput } from '@vf/logger';
import { closeRedis, createQueues, createRedis, pingRedis } from '@vf/queue';
import { closeSignaturePool } from '@vf/chain/signature-pool';
import { createAdminApp } from './admin/create-admin-app';
import type { AppDeps } from './app-deps';
import { createApp } from './create-app';
import { createLogger } from './http/create-logger';

const DATABASE_CONNECT_TIMEOUT_MS = 5_000;
const PROBE_TIMEOUT_MS = 2_000;

function listen(app: Express, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, () => resolve(server));
    server.once('error', reject);
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
}

/**
 * The API process. It listens at once, so liveness answers while it waits for PostgreSQL and the schema this code
 * needs (migrating first with MIGRATE_ON_START); until then every other request gets 503. Redis is not waited for:
 * registrations do not need it, and its connection reconnects on its own.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  routeProcessOutput(logger);
  const database = createDatabase(config.databaseUrl, { poolMode: config.databasePoolMode });
  // A connection dropped by the server (restart, failover, pg_terminate_backend) must not end the process:
  // requests meanwhile get 503, and the pool opens fresh connections once PostgreSQL is back.
  database.pool.on('error', (err) => logger.warn({ err }, 'idle database connection lost'));
  // A PostgreSQL that does not answer (rather than refusing) costs a request 5 s and a 503, not a hang.
  database.pool.options.connectionTimeoutMillis = DATABASE_CONNECT_TIMEOUT_MS;
  // Producer connection: fails fast when Redis is down instead of queueing commands, so a registration never hangs
  // on Redis (the reconciler enqueues what was missed).
  const redis = createRedis(config, 'producer');
  const queues = createQueues(redis, config.queuePrefix);
  // An 'error' event without a listener would crash the process; an outage is logged and outlived instead, each
  // distinct error once per 30 s however often the connection and the queues repeat it.
  const logRepeat = logRepeatsSparingly(logger);
  const onError = (source: string) => (err: unknown) => logRepeat('warn', { err, source }, 'redis connection error');
  redis.on('error', onError('connection'));
  queues.submission.on('error', onError('submission queue'));
  queues.maintenance.on('error', onError('maintenance queue'));
  queues.taxIdLists.on('error', onError('tax ID list queue'));
  const readiness = new Readiness(
    inspectDependencies({
      schema: () => schemaStatus(database.pool),
      redis: () => pingRedis(redis),
      redisRequired: false,
      timeoutMs: PROBE_TIMEOUT_MS,
    }),
  );

  const deps: AppDeps = { db: database.db, redis, queues, logger, config, readiness, healthTimeoutMs: PROBE_TIMEOUT_MS };
  const servers = [await listen(createApp(deps), config.port)];
  logger.info({ port: config.port }, 'api listening');
  if (config.adminPort !== undefined && config.admin) {
    servers.push(await listen(createAdminApp({ ...deps, config: { ...config, admin: config.admin } }), config.adminPort));
    logger.info({ port: config.adminPort }, 'admin listening (Bull Board, metrics)');
  }

  const starting = new AbortController();
  stopOnSignals({
    logger,
    timeoutMs: config.shutdownTimeoutMs,
    // Order matters: no new requests (readiness first, for load balancers), then no more enqueues, then the pool.
    stop: async () => {
      starting.abort();
      readiness.stopping();
      await Promise.all(servers.map(close));
      await queues.close();
      await closeRedis(redis);
      await database.close();
      await closeSignaturePool();
    },
  });
  // Express catches route rejections; anything else that slips out is logged rather than taking every request down.
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'));

  try {
    await waitFor(
      'PostgreSQL with the current schema',
      () => ensureCurrentSchema({ url: config.databaseUrl, pool: database.pool, migrate: config.migrateOnStart }),
      { logger, signal: starting.signal },
    );
  } catch (err) {
    // Told to stop while waiting: the signal handler is closing everything.
    if (starting.signal.aborted) return;
    throw err;
  }
  readiness.serving();
  logger.info('api ready');
}

main().catch((err) => {
  // Before the configuration is read there is no configured logger yet: the shared one still redacts and
  // reduces database errors to their code.
  createServiceLogger({ service: 'api' }).fatal({ err }, 'api failed to start');
  process.exit(1);
});
