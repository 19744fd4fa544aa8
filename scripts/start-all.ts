/**
 * `npm start` (after `npm run build`): the whole service on one machine with local defaults — generates throwaway
 * test certificates, then runs the authority SIMULATOR, the API (with the dashboard) and one worker as child
 * processes, and stops them all together. The API and the worker migrate the database (creating it if missing) as
 * they start (MIGRATE_ON_START; the migration's lock lets them both try). `--watch` restarts a service when its
 * compiled code changes (`npm run dev` keeps the build up to date). What it prints: service-output.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureMasterKeyFile, loadConfig, SERVICE_ENTRY_POINTS, SERVICE_NODE_FLAGS, writePrivateFile, type ServiceRole } from '@vf/config';
import { createLogger } from '@vf/logger';
import { prepareTestCertificates } from './prepare-test-certificates';
import { outputFormat, serviceLineFormatter } from './service-output';

// This file runs compiled, from scripts/dist/.
const root = path.resolve(__dirname, '..', '..');
const watch = process.argv.includes('--watch');
// Local state (generated keys, passwords, test certificates); VAR_DIR moves it, e.g. for a test run.
const varDir = path.resolve(root, process.env.VAR_DIR ?? 'var');
const certDir = path.resolve(root, process.env.CERT_DIR ?? path.join(varDir, 'certs'));
const formatLine = serviceLineFormatter(outputFormat(process.env, process.stdout));
const logger = createLogger({
  service: 'start',
  level: process.env.LOG_LEVEL ?? 'info',
  destination: { write: (line: string) => process.stdout.write(formatLine('start', line.trimEnd())) },
});

/** A long-running service: Node itself running the role's compiled entry point, with the services' flags. */
function run(role: ServiceRole, env: NodeJS.ProcessEnv): ChildProcess {
  const flags = watch ? [...SERVICE_NODE_FLAGS[role], '--watch'] : SERVICE_NODE_FLAGS[role];
  const child = spawn(process.execPath, [...flags, path.join(root, SERVICE_ENTRY_POINTS[role])], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const forward = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
    let buffered = '';
    stream.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line) out.write(formatLine(role, line));
    });
  };
  forward(child.stdout!, process.stdout);
  forward(child.stderr!, process.stderr);
  return child;
}

/** Resolves once the API answers that it is ready, so that "started" is said only when it is true. */
async function apiReady(port: number): Promise<void> {
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A local admin password for Bull Board, made once and kept out of the logs. */
function localAdminPassword(): string {
  const file = path.join(varDir, 'admin-password.txt');
  if (!existsSync(file)) writePrivateFile(file, randomBytes(18).toString('base64url') + '\n');
  chmodSync(file, 0o600);
  return readFileSync(file, 'utf8').trim();
}

async function main(): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, CERT_DIR: certDir, AUTHORITY_MODE: process.env.AUTHORITY_MODE ?? 'simulator' };
  if (!env.MASTER_KEY) {
    // Made at random on the first run (0600) and reused: every process reads the file, none gets the key on its command line.
    env.MASTER_KEY_FILE = path.resolve(root, env.MASTER_KEY_FILE ?? path.join(varDir, 'master-key'));
    ensureMasterKeyFile(env.MASTER_KEY_FILE);
  }
  if (!env.ADMIN_USER) {
    env.ADMIN_USER = 'admin';
    env.ADMIN_PASSWORD = localAdminPassword();
  }
  // Bull Board and the metrics on a port of their own, apart from the tenants' (as in production); each worker
  // answers its probes and serves its own metrics on WORKER_PORT.
  env.ADMIN_PORT ??= '3001';
  env.WORKER_PORT ??= '9464';
  env.MIGRATE_ON_START ??= 'true';
  // EU VAT numbers are checked with the simulator's VIES stand-in, as the census with the simulator's census.
  if (env.AUTHORITY_MODE === 'simulator' && env.SIM_VIES_PORT && !env.VIES_URL) {
    env.VIES_URL = `http://127.0.0.1:${env.SIM_VIES_PORT}/taxation_customs/vies/rest-api`;
  }
  prepareTestCertificates(certDir, false, logger);

  const passwords = JSON.parse(readFileSync(path.join(certDir, 'passwords.json'), 'utf8')) as Record<string, string>;
  env.SIMULATOR_CA_PATH ??= path.join(certDir, 'ca.pem');
  if (!env.PLATFORM_CERT_PATH) {
    env.PLATFORM_CERT_PATH = path.join(certDir, 'platform.p12');
    env.PLATFORM_CERT_PASSWORD = passwords['platform.p12'];
  }
  // Local runs test webhooks against receivers on this machine, which the service refuses otherwise.
  env.WEBHOOK_ALLOWED_HOSTS ??= 'localhost,127.0.0.1,::1';
  // Every problem in the settings is listed once, here, rather than by each service as it fails.
  const config = loadConfig(env);

  const children = [run('sim', { ...env, SIM_CERT_DIR: certDir }), run('api', env), run('worker', env)];
  let stopping = false;
  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const c of children) c.kill('SIGTERM');
    // The services bound their own shutdown by SHUTDOWN_TIMEOUT_MS; this only catches one that hangs regardless.
    setTimeout(() => process.exit(code), config.shutdownTimeoutMs + 5_000).unref();
    Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.on('exit', r))))).then(() => process.exit(code));
  };
  for (const c of children)
    c.on('exit', (code) => !stopping && (logger.error({ code }, 'a process exited; stopping all'), stopAll(code ?? 1)));
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));

  await apiReady(config.port);
  if (stopping) return;
  logger.info(
    {
      url: `http://localhost:${config.port}/`,
      queueBoard: `http://localhost:${config.adminPort}/admin/queues`,
      metrics: `http://localhost:${config.adminPort}/metrics`,
      workerMetrics: `http://localhost:${config.worker.port}/metrics`,
      adminUser: env.ADMIN_USER,
      adminPasswordFile: path.relative(root, path.join(varDir, 'admin-password.txt')),
      masterKeyFile: env.MASTER_KEY_FILE,
    },
    'API and dashboard started; submissions go to the local AEAT SIMULATOR, not to the tax authority',
  );
}

main().catch((err) => {
  logger.error({ err }, 'start failed');
  process.exit(1);
});
