import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import IORedis from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { createQueues, type Queues } from '@vf/queue';
import type { AppDeps } from '../app-deps';
import { createApp } from '../create-app';
import { createLogger } from '../http/create-logger';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestApp {
  app: Express;
  db: TestDatabase;
  queues: Queues;
  redis: Redis;
  masterKey: Buffer;
  certificateDir: string;
  /** Every log line the app wrote, raw JSON. */
  logs: string[];
  close(): Promise<void>;
}

/** A log sink that keeps lines in memory, to assert what the app logs (and never logs). */
export function captureLogs(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

/** The real app on a fresh database and its own queue prefix; a low bcrypt cost keeps tests quick. */
export async function createTestApp(
  overrides: Partial<Omit<AppDeps, 'config'>> & { config?: Partial<AppDeps['config']> } = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const redis = new IORedis(REDIS_URL, { maxRetriesPerRequest: null });
  const queuePrefix = `vftest-${randomUUID()}`;
  const queues = overrides.queues ?? createQueues(redis, queuePrefix);
  const { stream, lines } = captureLogs();
  const masterKey = randomBytes(32);
  const certificateDir = mkdtempSync(path.join(tmpdir(), 'vf-api-certs-'));
  const deps: AppDeps = {
    db: db.db,
    redis,
    queues,
    logger: createLogger('debug', stream),
    ...overrides,
    config: { masterKey, certificateDir, admin: undefined, queuePrefix, passwordHashCost: 4, ...overrides.config },
  };
  return {
    app: createApp(deps),
    db,
    queues,
    redis,
    masterKey,
    certificateDir,
    logs: lines,
    async close() {
      await queues.submission.obliterate({ force: true });
      await queues.maintenance.obliterate({ force: true });
      await queues.remission.obliterate({ force: true });
      await queues.close();
      await redis.quit();
      await db.destroy();
      rmSync(certificateDir, { recursive: true, force: true });
    },
  };
}
