/**
 * Submission throughput: registers N invoices over T taxpayers through the API (in-process), then starts K worker
 * processes and measures how long they take to drain everything through the authority SIMULATOR (loopback, mutual
 * TLS). Bounded in count and time; uses a scratch database and queue prefix that it removes afterwards.
 *
 *   npm run bench -- --invoices 2000 --taxpayers 4 --workers 3 --wait 1
 */
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { spawnWorker, stopWorker, workerStarted, type WorkerProcess } from '../apps/worker/src/testing/worker-processes';
import { WorkerTestEnv } from '../apps/worker/src/testing/worker-test-env';
import { scratchDatabase } from './scratch-database';

const LIMITS = { invoices: [1, 20_000], taxpayers: [1, 20], workers: [1, 8], wait: [0, 60], timeout: [10, 1_800] } as const;

function option(values: Record<string, string | undefined>, name: keyof typeof LIMITS, fallback: number): number {
  const value = values[name] === undefined ? fallback : Number(values[name]);
  const [min, max] = LIMITS[name];
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} must be an integer in [${min}, ${max}]`);
  return value;
}

export async function submissionThroughput(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { invoices: { type: 'string' }, taxpayers: { type: 'string' }, workers: { type: 'string' }, wait: { type: 'string' }, timeout: { type: 'string' } },
    strict: true,
  });
  const invoices = option(values, 'invoices', 2_000);
  const taxpayerCount = option(values, 'taxpayers', 4);
  const workerCount = option(values, 'workers', 3);
  const waitSeconds = option(values, 'wait', 1);
  const timeoutSeconds = option(values, 'timeout', 300);

  const env = await WorkerTestEnv.create({
    database: scratchDatabase,
    behaviour: { waitSeconds },
    env: { LOG_LEVEL: 'info', WORKER_CONCURRENCY: '16', AUTHORITY_TIMEOUT_MS: '60000' },
  });
  const workers: WorkerProcess[] = [];
  try {
    const party = await env.party();
    const taxpayers = await Promise.all(Array.from({ length: taxpayerCount }, () => env.taxpayer(party, { certificate: 'own' })));
    const seedStart = Date.now();
    const shares = taxpayers.map((_, i) => Math.floor(invoices / taxpayerCount) + (i < invoices % taxpayerCount ? 1 : 0));
    const ids = (await Promise.all(taxpayers.map((t, i) => env.register(party, t.id, shares[i])))).flat();
    const seedSeconds = (Date.now() - seedStart) / 1000;

    for (let i = 1; i <= workerCount; i += 1) workers.push(spawnWorker(`bench-${i}`, env.env));
    await Promise.all(workers.map((w) => workerStarted(w)));
    const drainStart = Date.now();
    const states = await env.settled(ids, timeoutSeconds * 1000);
    const drainSeconds = (Date.now() - drainStart) / 1000;

    const messages = await env.db.db.execute<{ count: number; max: number }>(sql`SELECT count(*)::int AS count, max(record_count) AS max FROM submissions`);
    const counters = env.sim.state.counters;
    const accepted = states.filter((s) => s.status === 'accepted').length;
    console.log(
      JSON.stringify(
        {
          bench: 'submission-throughput',
          invoices,
          taxpayers: taxpayerCount,
          workerProcesses: workerCount,
          simulatorWaitSeconds: waitSeconds,
          seedSeconds,
          drainSeconds,
          recordsPerSecond: Math.round((invoices / drainSeconds) * 10) / 10,
          accepted,
          messages: messages.rows[0].count,
          maxRecordsPerMessage: messages.rows[0].max,
          flowControlViolations: counters.flowControlViolations,
          duplicates: counters.duplicates,
        },
        null,
        2,
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => stopWorker(w)));
    await env.close();
  }
}

if (require.main === module) {
  submissionThroughput(process.argv.slice(2)).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
