/**
 * `npm start`: the whole service on one machine with local defaults — migrates the database (creating it if
 * missing), generates throwaway test certificates, then runs the authority SIMULATOR, the API (with the
 * dashboard) and one worker as child processes, and stops them all together.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureMasterKeyFile, loadConfig, writePrivateFile } from '@vf/config';
import { migrateDatabase } from '@vf/db';
import { createLogger } from '@vf/logger';
import { prepareTestCertificates } from './prepare-test-certificates';
import { SERVICE_NODE_FLAGS } from './service-node-flags';

const root = path.resolve(__dirname, '..');
// Local state (generated keys, passwords, test certificates); VAR_DIR moves it, e.g. for a test run.
const varDir = path.resolve(root, process.env.VAR_DIR ?? 'var');
const certDir = path.resolve(root, process.env.CERT_DIR ?? path.join(varDir, 'certs'));
const logger = createLogger({ service: 'start', level: process.env.LOG_LEVEL ?? 'info' });

/** A long-running service: Node itself with tsx as its loader and the services' flags. */
function run(name: string, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '--import', 'tsx', path.join(root, script)], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = `[${name}] `;
  const forward = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
    let buffered = '';
    stream.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) out.write(prefix + line + '\n');
    });
  };
  forward(child.stdout!, process.stdout);
  forward(child.stderr!, process.stderr);
  return child;
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
  // Before the configuration is read: operator-only settings (WORKER_METRICS_PORT) need the admin credentials.
  if (!env.ADMIN_USER) {
    env.ADMIN_USER = 'admin';
    env.ADMIN_PASSWORD = localAdminPassword();
  }
  // Done here rather than by `npm run migrate` and `npm run certs` in processes of their own: each would boot Node
  // and its TypeScript loader again before the services do.
  await migrateDatabase(loadConfig(env).databaseUrl);
  logger.info('database migrated');
  prepareTestCertificates(certDir, false, logger);

  const passwords = JSON.parse(readFileSync(path.join(certDir, 'passwords.json'), 'utf8')) as Record<string, string>;
  env.SIMULATOR_CA_PATH ??= path.join(certDir, 'ca.pem');
  if (!env.PLATFORM_CERT_PATH) {
    env.PLATFORM_CERT_PATH = path.join(certDir, 'platform.p12');
    env.PLATFORM_CERT_PASSWORD = passwords['platform.p12'];
  }
  // The one worker's own metrics; the API's /metrics already shows the whole backlog.
  env.WORKER_METRICS_PORT ??= '9464';
  // Local runs test webhooks against receivers on this machine, which the service refuses otherwise.
  env.WEBHOOK_ALLOWED_HOSTS ??= 'localhost,127.0.0.1,::1';

  const children = [
    run('sim', 'apps/authority-sim/src/main.ts', { ...env, SIM_CERT_DIR: certDir }),
    run('api', 'apps/api/src/main.ts', env),
    run('worker', 'apps/worker/src/main.ts', env),
  ];
  const port = env.PORT ?? '3000';
  logger.info(
    {
      url: `http://localhost:${port}/`,
      queueBoard: '/admin/queues',
      metrics: '/metrics',
      workerMetrics: `http://localhost:${env.WORKER_METRICS_PORT}/metrics`,
      adminUser: env.ADMIN_USER,
      adminPasswordFile: path.relative(root, path.join(varDir, 'admin-password.txt')),
      masterKeyFile: env.MASTER_KEY_FILE,
    },
    'API and dashboard started; submissions go to the local AEAT SIMULATOR, not to the tax authority',
  );

  let stopping = false;
  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const c of children) c.kill('SIGTERM');
    setTimeout(() => process.exit(code), 10_000).unref();
    Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.on('exit', r))))).then(() => process.exit(code));
  };
  for (const c of children)
    c.on('exit', (code) => !stopping && (logger.error({ code }, 'a process exited; stopping all'), stopAll(code ?? 1)));
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));
}

main().catch((err) => {
  logger.error({ err }, 'start failed');
  process.exit(1);
});
