import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { pollWhileRunning, recordOutput } from '@vf/private-servers';
import { npmStartEnv } from './support/npm-start-env';

// `npm start` as a user runs it (build, certificates, simulator, API and worker migrating as they start), with its
// local state in a temporary folder: every line it prints, its children's included, is searched for the secrets it
// made and used, and parses as JSON (its output is a pipe here, not a terminal).
const root = path.resolve(__dirname, '../..');

const parses = (line: string) => {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
};

let db: TestDatabase;
let varDir: string;
let child: ChildProcess;

beforeAll(async () => {
  db = await createTestDatabase();
  varDir = mkdtempSync(path.join(tmpdir(), 'vf-npm-start-'));
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      process.kill(-child.pid!, 'SIGKILL');
    });
  }
  child?.stdout?.destroy();
  child?.stderr?.destroy();
  await db.destroy();
  rmSync(varDir, { recursive: true, force: true });
});

test('npm start serves tenants and operators on ports apart, prints no secret, and keeps its secrets to their owner', async () => {
  const { env: started, ports } = await npmStartEnv(db.url, varDir);
  const env = { ...started, LOG_LEVEL: 'debug' };
  const { port, adminPort, workerPort } = ports;
  child = spawn('npm', ['start'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const service = recordOutput(child);

  const base = `http://127.0.0.1:${port}`;
  await pollWhileRunning(
    service,
    async () => (await request(base).get('/api/v1/health')).status === 200,
    'npm start to serve /health',
    120_000,
    500,
  );
  const password = `pw-${randomUUID()}`;
  const email = `${randomUUID()}@example.test`;
  const registered = await request(base).post('/api/v1/auth/register').send({ name: 'Start', email, password }).expect(201);
  const adminPassword = readFileSync(path.join(varDir, 'admin-password.txt'), 'utf8').trim();
  // Bull Board and the metrics are on the admin port only; the tenants' port does not know them.
  const admin = `http://127.0.0.1:${adminPort}`;
  await request(admin).get('/admin/queues').auth('admin', adminPassword).expect(200);
  await request(admin).get('/admin/queues').auth('admin', 'wrong password').expect(401);
  await request(admin).get('/metrics').auth('admin', adminPassword).expect(200);
  for (const page of ['/admin/queues', '/metrics']) await request(base).get(page).auth('admin', adminPassword).expect(404);
  // The worker answers its probes on its own listener.
  const worker = `http://127.0.0.1:${workerPort}`;
  await pollWhileRunning(
    service,
    async () => (await request(worker).get('/health/ready')).status === 200,
    'the worker to be ready',
    60_000,
  );
  await request(worker).get('/metrics').auth('admin', adminPassword).expect(200);

  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGTERM');
  });

  for (const file of ['admin-password.txt', 'master-key'])
    expect({ file, mode: statSync(path.join(varDir, file)).mode & 0o777 }).toEqual({ file, mode: 0o600 });
  const certPasswords = Object.values(
    JSON.parse(readFileSync(path.join(varDir, 'certs', 'passwords.json'), 'utf8')) as Record<string, string>,
  );
  const secrets: Record<string, string> = {
    adminPassword,
    masterKey: readFileSync(path.join(varDir, 'master-key'), 'utf8').trim(),
    accountPassword: password,
    apiKey: registered.body.data.api_key,
    ...Object.fromEntries(certPasswords.map((p, i) => [`certificatePassword${i}`, p])),
  };
  const printed = service.output.join('');
  expect(printed).toContain('api listening');
  // Not a terminal: one JSON object a line, from every service and from npm start itself (npm's own header aside).
  const unparsed = printed.split('\n').filter((line) => line !== '' && !line.startsWith('> ') && !parses(line));
  expect(unparsed).toEqual([]);
  expect(
    new Set(
      printed
        .split('\n')
        .filter(parses)
        .map((line) => JSON.parse(line).service),
    ),
  ).toEqual(new Set(['start', 'authority-sim', 'api', 'worker']));
  for (const [name, secret] of Object.entries(secrets))
    expect({ name, printed: printed.includes(secret) }).toEqual({ name, printed: false });
});
