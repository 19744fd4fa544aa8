import type { Logger } from 'pino';
import type { AppConfig } from '@vf/config';
import { ensureCurrentSchema } from '@vf/db';
import { waitFor } from '@vf/lifecycle';
import { pingRedis } from '@vf/queue';
import type { WorkerConnections } from './worker-connections';

/**
 * Waits for PostgreSQL with the current schema (migrating first with MIGRATE_ON_START), then for Redis, logging each
 * failed try; rejects when `signal` aborts meanwhile.
 */
export async function waitForDependencies(
  config: AppConfig,
  connections: WorkerConnections,
  logger: Logger,
  signal: AbortSignal,
): Promise<void> {
  const { pool } = connections.database;
  await waitFor(
    'PostgreSQL with the current schema',
    () => ensureCurrentSchema({ url: config.databaseUrl, pool, migrate: config.migrateOnStart }),
    { logger, signal },
  );
  await waitFor('Redis', () => pingRedis(connections.redis), { logger, signal });
}
