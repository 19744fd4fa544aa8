import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { createTestCa } from '@vf/certificates/testing';
import { freePort, pollWhileRunning, PrivatePostgres, PrivateRedis, recordOutput, type ServiceProcess } from '@vf/private-servers';
import { csrfTokenIn } from '../dashboard/testing/dashboard-agent';

// The real API and worker processes (npm run api / npm run worker) against a PostgreSQL and a Redis of this test's
// own, which it stops, restarts and disconnects under them. Each step polls with a deadline.
const root = path.resolve(__dirname, '../../../..');
const DATABASE = 'verifactu';

function startService(script: string, env: NodeJS.ProcessEnv): ServiceProcess {
  // Its own process group: tsx runs the script in a child node process, and both must go at the end.
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, script)], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return recordOutput(child);
}

function expectAlive(service: ServiceProcess): void {
  expect({ exitCode: service.child.exitCode, signal: service.child.signalCode }).toEqual({ exitCode: null, signal: null });
}

let pg: PrivatePostgres;
let redis: PrivateRedis;
let api: ServiceProcess;
let worker: ServiceProcess;
let baseUrl: string;
let dir: string;
let apiKey: string;

const health = () => request(baseUrl).get('/api/v1/health');
const account = () => request(baseUrl).get('/api/v1/account').set('Authorization', `Bearer ${apiKey}`);

beforeAll(async () => {
  [pg, redis] = await Promise.all([PrivatePostgres.start(), PrivateRedis.start()]);
  dir = mkdtempSync(path.join(tmpdir(), 'vf-outage-'));
  writeFileSync(path.join(dir, 'ca.pem'), createTestCa().certPem);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    DATABASE_URL: pg.url(DATABASE),
    REDIS_URL: redis.url,
    MASTER_KEY: randomBytes(32).toString('base64'),
    CERT_DIR: dir,
    SIMULATOR_CA_PATH: path.join(dir, 'ca.pem'),
    QUEUE_PREFIX: `vfoutage-${randomUUID()}`,
    RECONCILE_INTERVAL_MS: '1000',
    LOG_LEVEL: 'info',
  };
  api = startService('apps/api/src/main.ts', env);
  await pollWhileRunning(api, async () => (await health()).status === 200, 'the API to answer /health with 200', 120_000, 250);
  worker = startService('apps/worker/src/main.ts', env);
  await pollWhileRunning(worker, async () => worker.output.join('').includes('worker started'), 'the worker to start', 120_000, 250);
  const registered = await request(baseUrl)
    .post('/api/v1/auth/register')
    .send({ name: 'Ops', email: 'ops@example.test', password: 'a long enough password' })
    .expect(201);
  apiKey = registered.body.data.api_key;
});

afterAll(async () => {
  await Promise.all(
    [api, worker].map(
      (service) =>
        service &&
        new Promise<void>((resolve) => {
          const done = () => {
            // A grandchild (tsx's esbuild service) can keep the pipes open after the group is gone.
            service.child.stdout!.destroy();
            service.child.stderr!.destroy();
            resolve();
          };
          if (service.child.exitCode !== null || service.child.signalCode !== null) return done();
          service.child.once('exit', done);
          process.kill(-service.child.pid!, 'SIGKILL');
        }),
    ),
  );
  await Promise.all([pg?.destroy(), redis?.destroy()]);
  rmSync(dir, { recursive: true, force: true });
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

test('a PostgreSQL restart: 503 problem+json with Retry-After while it is down, healthy again within seconds, no process exits', async () => {
  await pg.stopServer();
  const down = await health();
  expect(down.status).toBe(503);
  expect(down.body.checks).toMatchObject({ database: 'unavailable', redis: 'ok' });
  for (const res of [
    await account(),
    await request(baseUrl).post('/api/v1/taxpayers').set('Authorization', `Bearer ${apiKey}`).send({ nif: '89890001K', name: 'Caído SL' }),
  ]) {
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'service_unavailable' });
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  }
  await pg.startServer();
  await pollWhileRunning(api, async () => (await health()).status === 200, '/health to be 200 again', 60_000);
  await pollWhileRunning(api, async () => (await account()).status === 200, 'requests to succeed again', 60_000);
  expectAlive(api);
  expectAlive(worker);
});

test('a Redis outage and empty restart: health 503 then 200, sign-in 503 not 500, no process exits', async () => {
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
  const agent = request.agent(baseUrl);
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
  expectAlive(api);
  expectAlive(worker);
  expect(api.output.join('')).not.toMatch(/Unhandled 'error' event|unhandled error/);
});
