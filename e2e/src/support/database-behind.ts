import type { DatabasePoolMode } from '@vf/config';
import { createDatabase } from '@vf/db';
import type { DisposableDatabase } from './worker-test-env';

/**
 * The test's pool on `url`, a database behind servers the test started for it (a proxy, a formation): closing it
 * stops them with `stopServers`. The pool outlives connections those servers drop, as the service's does.
 */
export function databaseBehind(url: string, stopServers: () => Promise<void>, poolMode?: DatabasePoolMode): DisposableDatabase {
  const database = createDatabase(url, { poolMode });
  database.pool.on('error', () => undefined);
  return {
    ...database,
    url,
    async destroy() {
      await database.close();
      await stopServers();
    },
  };
}
