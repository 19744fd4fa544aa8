/**
 * Registration throughput: C concurrent HTTP clients register N invoices through a listening API (real
 * PostgreSQL and Redis, loopback only), spread over T taxpayers. T = 1 measures the worst case, where every
 * registration waits for the same chain lock. Bounded in count; uses a scratch database and queue prefix.
 *
 *   npm run bench -- registration --invoices 2000 --taxpayers 1 --concurrency 32
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import IORedis from 'ioredis';
import { createApp } from '@vf/api/src/create-app';
import { createLogger } from '@vf/api/src/http/create-logger';
import { madridToday } from '@vf/core';
import { createQueues } from '@vf/queue';
import { scratchDatabase } from './scratch-database';

const LIMITS = { invoices: [1, 50_000], taxpayers: [1, 50], concurrency: [1, 256] } as const;
const NIFS = ['89890001K', '89890002E', 'A86018322', 'B63272603', 'J99216582'];

function option(values: Record<string, string | undefined>, name: keyof typeof LIMITS, fallback: number): number {
  const value = values[name] === undefined ? fallback : Number(values[name]);
  const [min, max] = LIMITS[name];
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} must be an integer in [${min}, ${max}]`);
  return value;
}

/** A valid NIF for the i-th taxpayer: the fixed test NIFs, then DNIs with the right check letter. */
function nifFor(i: number): string {
  if (i < NIFS.length) return NIFS[i];
  const n = 10_000_000 + i;
  return `${n}${'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}`;
}

async function post(base: string, path: string, body: unknown, key?: string): Promise<{ status: number; json: any }> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key && { authorization: `Bearer ${key}` }) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;
}

export async function registrationThroughput(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { invoices: { type: 'string' }, taxpayers: { type: 'string' }, concurrency: { type: 'string' } }, strict: true });
  const total = option(values, 'invoices', 2_000);
  const taxpayerCount = option(values, 'taxpayers', 1);
  const concurrency = option(values, 'concurrency', 32);

  const database = await scratchDatabase();
  const redis = new IORedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  const queues = createQueues(redis, `vfbench-${randomUUID()}`);
  const app = createApp({
    db: database.db,
    redis,
    queues,
    logger: createLogger('silent'),
    config: { masterKey: randomBytes(32), certificateDir: tmpdir(), admin: undefined },
    passwordHashCost: 4,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  try {
    await database.db.execute(sql`UPDATE plans SET monthly_quota = 1000000`);
    const account = await post(base, '/auth/register', { name: 'Bench', email: `bench-${randomUUID()}@example.test`, password: 'a long bench password' });
    const key: string = account.json.data.api_key;
    const system = await post(base, '/systems', { vendor_name: 'Bench SL', vendor_nif: 'B85905495', name: 'Bench', version: '1', installation_number: '1' }, key);
    const taxpayers: string[] = [];
    for (let i = 0; i < taxpayerCount; i += 1) taxpayers.push((await post(base, '/taxpayers', { nif: nifFor(i), name: `Taxpayer ${i}` }, key)).json.data.id);

    const today = madridToday();
    const latencies: number[] = [];
    let next = 0;
    let failures = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < total; i = next++) {
          const t0 = performance.now();
          const res = await post(base, '/invoices', {
            taxpayer_id: taxpayers[i % taxpayerCount],
            computer_system_id: system.json.data.id,
            invoice_number: `B-${i}`,
            invoice_date: today,
            invoice_type: 'F1',
            description: 'Benchmark',
            recipient: { name: 'Cliente SL', nif: 'B85905495' },
            breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 }],
            total_amount: 121,
            total_tax_amount: 21,
          }, key);
          latencies.push(performance.now() - t0);
          if (res.status !== 201) failures += 1;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const chains = await database.db.execute<{ n: number; gaps: number }>(
      sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE chain_seq <> rn)::int AS gaps
          FROM (SELECT chain_seq, row_number() OVER (PARTITION BY chain_id ORDER BY chain_seq) AS rn FROM invoices) c`,
    );
    latencies.sort((a, b) => a - b);
    console.log(
      JSON.stringify(
        {
          bench: 'registration-throughput',
          invoices: total,
          taxpayers: taxpayerCount,
          concurrency,
          seconds: Math.round(seconds * 100) / 100,
          registrationsPerSecond: Math.round((total / seconds) * 10) / 10,
          latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99) },
          failures,
          stored: chains.rows[0].n,
          chainGaps: chains.rows[0].gaps,
        },
        null,
        2,
      ),
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await queues.submission.obliterate({ force: true });
    await queues.maintenance.obliterate({ force: true });
    await queues.close();
    await redis.quit();
    await database.destroy();
  }
}

if (require.main === module) {
  registrationThroughput(process.argv.slice(2)).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
