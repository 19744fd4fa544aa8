import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import IORedis from 'ioredis';
import request from 'supertest';
import { createSimulator, type Simulator } from '@vf/authority-sim';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { loadConfig } from '@vf/config';
import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { createLogger } from '@vf/logger';
import { createQueues, type Queues } from '@vf/queue';
import { createWorkerRuntime, type WorkerRuntime } from '@vf/worker';
import { createApp } from '@vf/api';
import { captureLogs, createSystem, csrfTokenIn, invoiceBody } from '@vf/api/testing';

// The whole service in one process, each part logging through the shared logger at debug level into one list:
// the API with its dashboard, a worker, and the authority simulator, running a real flow. Then every line is
// searched for each secret the flow used.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PLATFORM_NIF = 'B85905495';
const TAXPAYER_NIF = '89890001K';

let db: TestDatabase;
let sim: Simulator;
let server: Server;
let worker: WorkerRuntime;
let redis: IORedis;
let queues: Queues;
let dir: string;
const logs = captureLogs();
const secrets: Record<string, string> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(path.join(tmpdir(), 'vf-log-grep-'));
  const ca = createTestCa();
  const serverCert = issueCertificate(ca, { commonName: 'simulator', serverHosts: ['127.0.0.1'] });
  secrets.platformPassword = `platform-${randomUUID()}`;
  writeFileSync(path.join(dir, 'ca.pem'), ca.certPem);
  writeFileSync(
    path.join(dir, 'platform.p12'),
    toPkcs12(issueCertificate(ca, { commonName: 'PLATAFORMA SL', nif: PLATFORM_NIF }), secrets.platformPassword, ca),
  );
  secrets.certificatePassword = `cert-${randomUUID()}`;
  const p12 = toPkcs12(
    issueCertificate(ca, { commonName: `CONTRIBUYENTE ${TAXPAYER_NIF}`, nif: TAXPAYER_NIF }),
    secrets.certificatePassword,
    ca,
  ).toString('base64');
  secrets.p12Excerpt = p12.slice(200, 260);
  secrets.p12 = p12;
  secrets.masterKey = randomBytes(32).toString('base64');

  const simLogger = createLogger({ service: 'authority-sim', level: 'debug', destination: logs.stream });
  sim = await createSimulator({
    tls: { certPem: serverCert.certPem, keyPem: serverCert.keyPem, caPem: ca.certPem },
    collaboratorNifs: [PLATFORM_NIF],
    behaviour: { waitSeconds: 1 },
    log: (line) => simLogger.info(line),
  });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    REDIS_URL,
    MASTER_KEY: secrets.masterKey,
    CERT_DIR: dir,
    QUEUE_PREFIX: `vflog-${randomUUID()}`,
    SIMULATOR_URL: sim.url,
    SIMULATOR_CA_PATH: path.join(dir, 'ca.pem'),
    PLATFORM_CERT_PATH: path.join(dir, 'platform.p12'),
    PLATFORM_CERT_PASSWORD: secrets.platformPassword,
    RECONCILE_INTERVAL_MS: '1000',
    LOG_LEVEL: 'debug',
    WORKER_ID: 'log-grep',
    SENDER_LEASE_TTL_MS: '3000',
  });
  redis = new IORedis(REDIS_URL, { maxRetriesPerRequest: null });
  queues = createQueues(redis, config.queuePrefix);
  const app = createApp({
    db: db.db,
    redis,
    queues,
    logger: createLogger({ service: 'api', level: 'debug', destination: logs.stream }),
    config: { masterKey: config.masterKey, certificateDir: dir, admin: undefined, queuePrefix: config.queuePrefix, passwordHashCost: 4 },
  });
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  worker = createWorkerRuntime({
    config,
    logger: createLogger({ service: 'worker', level: 'debug', base: { workerId: 'log-grep' }, destination: logs.stream }),
  });
  await worker.start();
});

afterAll(async () => {
  await worker?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await queues?.submission.obliterate({ force: true });
  await queues?.maintenance.obliterate({ force: true });
  await queues?.close();
  await redis?.quit();
  await sim?.close();
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

test('a full run (sign-up, certificate upload, registration, sending, key regeneration, sign-in) logs none of its secrets', async () => {
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const email = `${randomUUID()}@example.test`;
  secrets.password = `pw-${randomUUID()}`;
  const registered = await request(base)
    .post('/api/v1/auth/register')
    .send({ name: 'Logs', email, password: secrets.password })
    .expect(201);
  secrets.apiKey = registered.body.data.api_key;
  const auth = { Authorization: `Bearer ${secrets.apiKey}` };
  // Mistakes too: their error paths log more than the happy path does.
  await request(base).post('/api/v1/auth/register').send({ name: 'Again', email, password: secrets.password }).expect(409);
  await request(base)
    .post('/api/v1/auth/regenerate-key')
    .send({ email, password: `${secrets.password}-wrong` })
    .expect(401);
  await request(base)
    .post('/api/v1/taxpayers')
    .set(auth)
    .send({ nif: TAXPAYER_NIF, name: 'Bad', certificate_p12_base64: secrets.p12, certificate_password: 'not it' })
    .expect(422);

  const taxpayer = await request(base)
    .post('/api/v1/taxpayers')
    .set(auth)
    .send({
      nif: TAXPAYER_NIF,
      name: 'Contribuyente',
      certificate_p12_base64: secrets.p12,
      certificate_password: secrets.certificatePassword,
    })
    .expect(201);
  const systemId = await createSystem(base, { apiKey: secrets.apiKey, email, password: secrets.password, auth });
  const invoice = await request(base).post('/api/v1/invoices').set(auth).send(invoiceBody(taxpayer.body.data.id, systemId)).expect(201);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await request(base).get(`/api/v1/invoices/${invoice.body.data.id}`).set(auth).expect(200);
    if (res.body.data.authority_status === 'accepted') break;
    if (Date.now() > deadline) throw new Error(`invoice still ${res.body.data.authority_status}`);
    await new Promise((r) => setTimeout(r, 200));
  }

  const regenerated = await request(base).post('/api/v1/auth/regenerate-key').send({ email, password: secrets.password }).expect(200);
  secrets.regeneratedKey = regenerated.body.data.api_key;
  const agent = request.agent(base);
  const page = await agent.get('/login').expect(200);
  const signedIn = await agent
    .post('/login')
    .type('form')
    .send({ _csrf: csrfTokenIn(page.text), email, password: secrets.password })
    .expect(303);
  secrets.sessionCookie = /vf_session=([^;]+)/.exec(String(signedIn.headers['set-cookie']))![1];
  await agent.get('/app').expect(200);

  const stored = (await db.db.execute(sql`SELECT password_hash, api_key_digest FROM accounts WHERE email = ${email}`)).rows[0] as Record<
    string,
    string
  >;
  secrets.passwordHash = stored.password_hash;
  secrets.apiKeyDigest = stored.api_key_digest;

  const lines = logs.lines;
  expect(lines.some((l) => l.includes('"service":"api"'))).toBe(true);
  expect(lines.some((l) => l.includes('"service":"worker"'))).toBe(true);
  const all = lines.join('\n');
  for (const [name, secret] of Object.entries(secrets)) expect({ name, found: all.includes(secret) }).toEqual({ name, found: false });
});
