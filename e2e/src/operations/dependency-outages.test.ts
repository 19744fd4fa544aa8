import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { csrfTokenIn } from '@vf/api/testing';
import { createTestCa } from '@vf/certificates/testing';
import {
  ended,
  freePort,
  pollWhileRunning,
  PrivatePostgres,
  PrivateRedis,
  startService,
  stopService,
  type ServiceProcess,
} from '@vf/private-servers';

// The real API and worker processes (npm run api / npm run worker, compiled) against a PostgreSQL and a Redis of this
// test's own, which it stops, restarts and disconnects under them, from before they start to after they are told to
// stop. The tests run in order, on one stack. Each step polls with a deadline.
const DATABASE = 'verifactu';
const SHUTDOWN_TIMEOUT_MS = 3_000;

function expectAlive(service: ServiceProcess): void {
  expect({ exitCode: service.child.exitCode, signal: service.child.signalCode }).toEqual({ exitCode: null, signal: null });
}

const printedTimes = (service: ServiceProcess, text: string) => service.output.join('').split(text).length - 1;

let pg: PrivatePostgres;
let redis: PrivateRedis;
let env: NodeJS.ProcessEnv;
let api: ServiceProcess;
let worker: ServiceProcess;
let apiUrl: string;
let workerUrl: string;
let dir: string;
let apiKey: string;

const health = () => request(apiUrl).get('/api/v1/health');
const account = () => request(apiUrl).get('/api/v1/account').set('Authorization', `Bearer ${apiKey}`);
const probe = (url: string, which: 'live' | 'ready') => request(url).get(`/health/${which}`);

/** Polls `url`'s readiness until it answers `status` with `checks`, and returns the body. */
async function readiness(service: ServiceProcess, url: string, status: number, checks: Record<string, string>, what: string) {
  return pollWhileRunning(
    service,
    async () => {
      const res = await probe(url, 'ready');
      return res.status === status && Object.entries(checks).every(([k, v]) => res.body.checks?.[k] === v) && res.body;
    },
    what,
    60_000,
    250,
  );
}

beforeAll(async () => {
  [pg, redis] = await Promise.all([PrivatePostgres.start(), PrivateRedis.start()]);
  // Both down before any service starts.
  await Promise.all([pg.stopServer(), redis.stopServer()]);
  dir = mkdtempSync(path.join(tmpdir(), 'vf-outage-'));
  writeFileSync(path.join(dir, 'ca.pem'), createTestCa().certPem);
  const [port, workerPort] = [await freePort(), await freePort()];
  apiUrl = `http://127.0.0.1:${port}`;
  workerUrl = `http://127.0.0.1:${workerPort}`;
  env = {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    WORKER_PORT: String(workerPort),
    DATABASE_URL: pg.url(DATABASE),
    REDIS_URL: redis.url,
    MASTER_KEY: randomBytes(32).toString('base64'),
    CERT_DIR: dir,
    SIMULATOR_CA_PATH: path.join(dir, 'ca.pem'),
    QUEUE_PREFIX: `{vfoutage-${randomUUID()}}`,
    RECONCILE_INTERVAL_MS: '1000',
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    LOG_LEVEL: 'info',
    // Not the default 10: the worker shares the cores with jest's own workers, which at 10 left it a tenth of a core's
    // share to start and recover with; this file is about outages, not priorities (worker-lifecycle.test.ts).
    WORKER_NICE: '0',
  };
});

afterAll(async () => {
  await Promise.all([api, worker].map((service) => service && stopService(service, 'SIGKILL')));
  await Promise.all([pg?.destroy(), redis?.destroy()]);
  rmSync(dir, { recursive: true, force: true });
});

test('started while PostgreSQL and Redis are down, both processes wait (alive, not ready) and serve once the database is migrated and Redis is back', async () => {
  api = startService('api', env);
  worker = startService('worker', env);
  await pollWhileRunning(api, async () => (await probe(apiUrl, 'live')).status === 200, 'the API to be live', 60_000, 250);
  await pollWhileRunning(worker, async () => (await probe(workerUrl, 'live')).status === 200, 'the worker to be live', 60_000, 250);
  // Retried with backoff, and said so.
  for (const service of [api, worker])
    await pollWhileRunning(
      service,
      async () => printedTimes(service, 'waiting for PostgreSQL with the current schema') >= 2,
      'two logged tries',
      60_000,
    );

  const starting = await probe(apiUrl, 'ready').expect(503);
  expect(starting.body).toEqual({ status: 'starting', checks: { database: 'unavailable', schema: 'unknown', redis: 'unavailable' } });
  expect((await health()).status).toBe(503);
  const refused = await request(apiUrl).post('/api/v1/auth/register').send({ name: 'Ops', email: 'early@example.test', password: 'x' });
  expect({ status: refused.status, code: refused.body.code, retryAfter: refused.headers['retry-after'] }).toEqual({
    status: 503,
    code: 'service_unavailable',
    retryAfter: '5',
  });

  // PostgreSQL is back with an empty database: the processes say why they still refuse to serve.
  await pg.startServer();
  const admin = new Client({ connectionString: pg.url('postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  await readiness(api, apiUrl, 503, { database: 'ok', schema: 'outdated' }, 'the API to find the schema outdated');
  await pollWhileRunning(
    api,
    async () => api.output.join('').includes('the database schema is older than this code: migration 0000_init and'),
    'the API to say the schema is older than the code',
    60_000,
  );

  const migrate = startService('migrate', env);
  expect(await ended(migrate)).toEqual({ code: 0, signal: null });
  // Ready without Redis: registrations do not need it. The worker does.
  expect(await readiness(api, apiUrl, 200, { schema: 'current', redis: 'unavailable' }, 'the API to be ready')).toMatchObject({
    status: 'ready',
  });
  await readiness(worker, workerUrl, 503, { schema: 'current', redis: 'unavailable' }, 'the worker to wait for Redis');
  await pollWhileRunning(worker, async () => worker.output.join('').includes('waiting for Redis'), 'the worker to wait for Redis', 60_000);

  await redis.startServer();
  await readiness(worker, workerUrl, 200, { database: 'ok', schema: 'current', redis: 'ok' }, 'the worker to be ready');
  // The line is written by the logger's stream, which may reach the pipe after the probe's answer.
  await pollWhileRunning(worker, async () => worker.output.join('').includes('"worker started"'), 'the worker to say it started', 60_000);
  await pollWhileRunning(api, async () => (await health()).status === 200, '/api/v1/health to be 200', 60_000);
  const registered = await request(apiUrl)
    .post('/api/v1/auth/register')
    .send({ name: 'Ops', email: 'ops@example.test', password: 'a long enough password' })
    .expect(201);
  apiKey = registered.body.data.api_key;
});

test('the service outlives pg_terminate_backend of every one of its connections', async () => {
  const admin = new Client({ connectionString: pg.url('postgres') });
  await admin.connect();
  try {
    const { rowCount } = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [DATABASE],
    );
    expect(rowCount).toBeGreaterThan(0);
  } finally {
    await admin.end();
  }
  await pollWhileRunning(api, async () => (await account()).status === 200, 'the API to answer from fresh connections', 60_000);
  expectAlive(api);
  expectAlive(worker);
});

test('a PostgreSQL restart: 503 problem+json with Retry-After and both unready while it is down, alive throughout, ready again after', async () => {
  await pg.stopServer();
  const down = await health();
  expect(down.status).toBe(503);
  expect(down.body.checks).toMatchObject({ database: 'unavailable', redis: 'ok' });
  for (const res of [
    await account(),
    await request(apiUrl).post('/api/v1/taxpayers').set('Authorization', `Bearer ${apiKey}`).send({ nif: '89890001K', name: 'Caído SL' }),
  ]) {
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'service_unavailable' });
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  }
  for (const url of [apiUrl, workerUrl]) {
    await probe(url, 'live').expect(200);
    const ready = await probe(url, 'ready').expect(503);
    expect(ready.body).toEqual({ status: 'unavailable', checks: { database: 'unavailable', schema: 'unknown', redis: 'ok' } });
  }

  await pg.startServer();
  await pollWhileRunning(api, async () => (await health()).status === 200, '/health to be 200 again', 60_000);
  await pollWhileRunning(api, async () => (await account()).status === 200, 'requests to succeed again', 60_000);
  await readiness(api, apiUrl, 200, { database: 'ok' }, 'the API to be ready again');
  await readiness(worker, workerUrl, 200, { database: 'ok' }, 'the worker to be ready again');
  expectAlive(api);
  expectAlive(worker);
});

test('a Redis outage and empty restart: the API stays ready (Redis reported), the worker is unready; sign-in 503 not 500; no process exits', async () => {
  await redis.stopServer();
  await pollWhileRunning(
    api,
    async () => {
      const res = await health();
      return res.status === 503 && res.body.checks.redis === 'unavailable';
    },
    '/health to report Redis unavailable',
    10_000,
  );
  await readiness(api, apiUrl, 200, { database: 'ok', redis: 'unavailable' }, 'the API to report Redis, ready');
  await readiness(worker, workerUrl, 503, { database: 'ok', redis: 'unavailable' }, 'the worker to be unready without Redis');
  await probe(workerUrl, 'live').expect(200);
  const agent = request.agent(apiUrl);
  const page = await agent.get('/login').expect(200);
  const signIn = await agent
    .post('/login')
    .type('form')
    .send({ _csrf: csrfTokenIn(page.text), email: 'ops@example.test', password: 'a long enough password' });
  expect(signIn.status).toBe(503);
  expect(signIn.headers['retry-after']).toBeDefined();
  await account().expect(200);

  await redis.startServer();
  await pollWhileRunning(api, async () => (await health()).status === 200, '/health to be 200 again', 60_000);
  await readiness(worker, workerUrl, 200, { redis: 'ok' }, 'the worker to be ready again');
  expectAlive(api);
  expectAlive(worker);
  expect(api.output.join('')).not.toMatch(/Unhandled 'error' event|unhandled error/);
});

test('SIGTERM with PostgreSQL and Redis both down: each process exits within its shutdown bound', async () => {
  await Promise.all([pg.stopServer(), redis.stopServer()]);
  await readiness(worker, workerUrl, 503, { database: 'unavailable', redis: 'unavailable' }, 'the worker to see both down');
  // The bound is SHUTDOWN_TIMEOUT_MS (3 s here); the deadline only tells a bounded exit from a hang (70 s, once).
  const deadline = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 30_000).unref());
  for (const service of [api, worker]) service.child.kill('SIGTERM');
  const outcomes = await Promise.all([api, worker].map((service) => Promise.race([ended(service), deadline])));
  expect(outcomes).toEqual([expect.objectContaining({ signal: null }), expect.objectContaining({ signal: null })]);
  for (const service of [api, worker]) expect(service.output.join('')).toContain('"shutting down"');
});
