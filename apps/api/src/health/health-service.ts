import type { RedisConnection } from '@vf/queue';
import { databaseStore, type Db } from '@vf/db';
import { withTimeout } from '@vf/lifecycle';

export type CheckResult = 'ok' | 'unavailable';

export interface HealthReport {
  healthy: boolean;
  checks: { database: CheckResult; redis: CheckResult };
}

export type HealthService = ReturnType<typeof createHealthService>;

export function createHealthService(deps: { db: Db; redis: RedisConnection; timeoutMs: number }) {
  async function probe(what: string, work: () => Promise<unknown>): Promise<CheckResult> {
    try {
      await withTimeout(work(), deps.timeoutMs, what);
      return 'ok';
    } catch {
      return 'unavailable';
    }
  }

  return {
    async check(): Promise<HealthReport> {
      const [database, redis] = await Promise.all([
        probe('database check', () => databaseStore.ping(deps.db)),
        probe('redis check', () => deps.redis.ping()),
      ]);
      return { healthy: database === 'ok' && redis === 'ok', checks: { database, redis } };
    },
  };
}
