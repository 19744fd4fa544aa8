import { Client } from 'pg';
import { createDatabase } from '@vf/db';
import { ended, PrivatePostgres, PrivateRedis, startService } from '@vf/private-servers';
import { spawnWorker, stopWorker, workerStarted, type WorkerProcess } from '../support/worker-processes';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// Real worker processes against a PostgreSQL and a Redis of this test's own, which it stops under a worker holding a
// message in flight (the authority does not answer it), then tells the worker to stop. The tests run in order.
const DATABASE = 'verifactu';
const RECORDS = 5;

let pg: PrivatePostgres;
let redis: PrivateRedis;
let env: WorkerTestEnv;
let party: Party;
let first: WorkerProcess;
let ids: string[];
let taxpayer: { id: string; nif: string };

beforeAll(async () => {
  [pg, redis] = await Promise.all([PrivatePostgres.start(), PrivateRedis.start()]);
  const admin = new Client({ connectionString: pg.url('postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  const url = pg.url(DATABASE);
  expect(await ended(startService('migrate', { ...process.env, DATABASE_URL: url }))).toEqual({ code: 0, signal: null });
  env = await WorkerTestEnv.create({
    database: async () => {
      const database = createDatabase(url);
      // The test's own connections outlive the outage it makes.
      database.pool.on('error', () => undefined);
      return { ...database, url, destroy: () => database.close() };
    },
    env: {
      REDIS_URL: redis.url,
      // The production default: a worker that waited it out would fail the 10 s bound below.
      SHUTDOWN_TIMEOUT_MS: '25000',
      AUTHORITY_TIMEOUT_MS: '5000',
      // The chain never had an answer: the next worker waits out the answer deadline plus this before it sends again
      // what the stopped one held (60 s in production, which this test would only wait out).
      SENDER_FIRST_WAIT_SECONDS: '1',
      WORKER_NICE: '0',
    },
  });
  // The test's own queues, too (BullMQ prints an error nobody listens for).
  env.apiQueues.connection.on('error', () => undefined);
  for (const queue of [env.apiQueues.submission, env.apiQueues.maintenance]) queue.on('error', () => undefined);
  party = await env.party();
  taxpayer = await env.taxpayer(party, { certificate: 'own' });
});

afterAll(async () => {
  if (first) await stopWorker(first, 'SIGKILL');
  await Promise.all([pg?.startServer().catch(() => undefined), redis?.startServer().catch(() => undefined)]);
  await env?.close();
  await Promise.all([pg?.destroy(), redis?.destroy()]);
});

const parses = (line: string) => {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
};

test('told to stop while PostgreSQL and Redis are both down and a message is in flight, a worker exits within seconds, writing JSON lines only', async () => {
  first = spawnWorker('first', env.env);
  await workerStarted(first);
  // The authority holds the message without answering: the worker has it in hand.
  env.sim.inject({ kind: 'hang', ms: 120_000 });
  ids = await env.register(party, taxpayer.id, RECORDS);
  await env.reach(ids, ['sent']);

  await Promise.all([pg.stopServer(), redis.stopServer()]);
  // Long enough for every Redis connection of the worker to fail its reconnections a few times.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const asked = Date.now();
  first.child.kill('SIGTERM');
  const exit = await first.exited;
  const tookMs = Date.now() - asked;

  expect(exit.signal).toBeNull();
  // A bound, not a timing: the worker used to wait out its 25 s SHUTDOWN_TIMEOUT_MS here.
  expect(tookMs).toBeLessThan(10_000);
  const printed = first.output.join('');
  const unparsed = printed.split('\n').filter((line) => line !== '' && !parses(line));
  expect(unparsed).toEqual([]);
  expect(printed).toContain('"worker stopped"');
  expect(printed).toContain('the jobs in hand cannot record their results and are given up');
});

test('once PostgreSQL and Redis are back, the next worker sends what the stopped one held: each record accepted once', async () => {
  env.sim.clearFaults({ kind: 'hang' });
  await Promise.all([pg.startServer(), redis.startServer()]);
  const next = spawnWorker('next', env.env);
  try {
    await workerStarted(next);
    const states = await env.reach(ids, ['accepted'], 90_000);
    expect(states.map((s) => s.status)).toEqual(Array(RECORDS).fill('accepted'));
    expect(env.sim.state.counters.registeredByNif[taxpayer.nif]).toHaveLength(RECORDS);
  } finally {
    await stopWorker(next);
  }
});
