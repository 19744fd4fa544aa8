import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { Client } from 'pg';

/** Databases and queue prefixes made by the bench start with this, so a leftover is easy to recognise. */
export const SCRATCH_PREFIX = 'vf_bench_';

export function adminUrl(): string {
  return process.env.BENCH_DATABASE_ADMIN_URL ?? process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export function redisUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}

export function scratchName(label: string): string {
  return `${SCRATCH_PREFIX}${label}_${Math.floor(Date.now() / 1000)}_${randomBytes(3).toString('hex')}`;
}

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Scratch databases of this run not dropped yet: what an interrupted run still has to remove. */
const live = new Set<string>();

export async function createScratchDatabase(name: string): Promise<void> {
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
  live.add(name);
}

export async function dropScratchDatabase(name: string): Promise<void> {
  await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  live.delete(name);
}

/** Drops every scratch database of this run still there, and the queue keys named after it. */
export async function dropLiveScratch(): Promise<void> {
  for (const name of [...live]) {
    await clearQueuePrefix(name).catch(() => undefined);
    await dropScratchDatabase(name).catch((err) => console.error(`could not drop ${name}: ${err.message}`));
  }
}

/** Deletes every Redis key under the run's queue prefix (the jobs the API enqueued). */
export async function clearQueuePrefix(prefix: string): Promise<void> {
  const redis = new IORedis(redisUrl(), { maxRetriesPerRequest: 1, lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
