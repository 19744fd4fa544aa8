import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { CALL_COUNTER, readCallCounts, type CallCounts } from './api-call-counts';
import type { Processes, Service } from './processes';
import { SERVICE_ENTRY_POINTS } from '@vf/config';
import { freePort } from '@vf/private-servers';
import { clearQueuePrefix, createScratchDatabase, databaseUrl, dropScratchDatabase, redisUrl, scratchName } from './scratch';

const READY_TIMEOUT_MS = 180_000;
const SIM_ENDPOINT_PATH = '/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP';
/** Levels at which the worker logs that it started taking jobs. */
const VERBOSE_LEVELS = ['trace', 'debug', 'info'];

export interface StackOptions {
  /** Names the scratch database, queue prefix and log files of this stack. */
  label: string;
  certDir: string;
  logDir: string;
  logLevel: string;
  /** TiempoEsperaEnvio the simulator answers (AEAT: 60). */
  simWaitSeconds: number;
  /** Worker processes started with the stack. */
  workers: number;
  keepData: boolean;
  /** Write a V8 CPU profile of the API and every worker into logDir when they stop. */
  profile: boolean;
}

export interface Stack {
  label: string;
  databaseName: string;
  apiUrl: string;
  env: NodeJS.ProcessEnv;
  /** The harness's own connection to the stack's database (quota, chain checks, timings). */
  pool: Pool;
  sim: Service;
  api: Service;
  workers: Service[];
  startWorkers(count: number): Promise<Service[]>;
  stopWorkers(): Promise<void>;
  /** The statements and Redis commands the API sent since it started (null if it did not say). */
  apiCalls(): Promise<CallCounts | null>;
  /** Throws with the end of its log when a service has died. */
  assertAlive(): void;
  stop(): Promise<void>;
}

async function waitFor(what: string, service: Service, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await ready().catch(() => false))) {
    if (service.child.exitCode !== null || service.child.signalCode !== null)
      throw new Error(`${service.name} exited before ${what}:\n${service.tail()}`);
    if (Date.now() > deadline) throw new Error(`${service.name}: no ${what} after ${READY_TIMEOUT_MS / 1000}s:\n${service.tail()}`);
    await sleep(100);
  }
}

function tcpOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/**
 * A running stack as `npm start` runs it (simulator, API, workers as separate processes), on a scratch
 * database and queue prefix of its own and on free ports, so the developer's data is never touched. The
 * simulator's schema validation is off: its XSD check would otherwise dominate the worker's sends.
 */
export async function startStack(processes: Processes, opts: StackOptions): Promise<Stack> {
  const databaseName = scratchName(opts.label.replace(/\W/g, '_'));
  const queuePrefix = databaseName;
  const [apiPort, simPort, viesPort] = [await freePort(), await freePort(), await freePort()];
  const passwords = JSON.parse(readFileSync(path.join(opts.certDir, 'passwords.json'), 'utf8')) as Record<string, string>;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    MASTER_KEY: randomBytes(32).toString('base64'),
    PORT: String(apiPort),
    DATABASE_URL: databaseUrl(databaseName),
    REDIS_URL: redisUrl(),
    QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: opts.logLevel,
    CERT_DIR: opts.certDir,
    AUTHORITY_MODE: 'simulator',
    SIMULATOR_URL: `https://127.0.0.1:${simPort}${SIM_ENDPOINT_PATH}`,
    // The machine's proxy settings are not the service's: the worker reaches the simulator directly.
    HTTPS_PROXY: '',
    https_proxy: '',
    SIMULATOR_CA_PATH: path.join(opts.certDir, 'ca.pem'),
    PLATFORM_CERT_PATH: path.join(opts.certDir, 'platform.p12'),
    PLATFORM_CERT_PASSWORD: passwords['platform.p12'],
    SIM_HOST: '127.0.0.1',
    SIM_PORT: String(simPort),
    SIM_VIES_PORT: String(viesPort),
    VIES_URL: `http://127.0.0.1:${viesPort}/taxation_customs/vies/rest-api`,
    SIM_CERT_DIR: opts.certDir,
    SIM_WAIT_SECONDS: String(opts.simWaitSeconds),
    SIM_VALIDATE_SCHEMA: 'false',
  };
  const logFile = (name: string) => path.join(opts.logDir, `${opts.label}-${name}.log`);
  // One directory per process: Node writes a profile per thread (the XSD validation runs in a thread of its own).
  const nodeArgs = (name: string) =>
    opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(opts.logDir, `${opts.label}-${name}.cpuprofiles`)}`] : [];

  await createScratchDatabase(databaseName);
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 4 });
  // DROP DATABASE … WITH (FORCE) at the end ends these connections; that is expected.
  pool.on('error', () => undefined);
  const workers: Service[] = [];
  let sim: Service | undefined;
  let api: Service | undefined;
  let workerCount = 0;

  const stop = async () => {
    for (const service of [...workers, api, sim]) if (service) await processes.stop(service.child);
    await pool.end().catch(() => undefined);
    if (opts.keepData) {
      console.log(`  kept ${opts.label}: database ${databaseName}, queue prefix ${queuePrefix}`);
      return;
    }
    await clearQueuePrefix(queuePrefix).catch((err) => console.error(`could not clear queue prefix ${queuePrefix}: ${err.message}`));
    await dropScratchDatabase(databaseName).catch((err) => console.error(`could not drop ${databaseName}: ${err.message}`));
  };

  const startWorkers = async (count: number) => {
    const started = Array.from({ length: count }, () => {
      workerCount += 1;
      const id = `bench-${opts.label}-${workerCount}`;
      return processes.spawnService(
        `worker ${id}`,
        'worker',
        { ...env, WORKER_ID: id },
        logFile(`worker-${workerCount}`),
        nodeArgs(`worker-${workerCount}`),
      );
    });
    workers.push(...started);
    for (const w of started) {
      if (VERBOSE_LEVELS.includes(opts.logLevel))
        await waitFor('"worker started" in its log', w, async () => w.tail(1_000_000).includes('"worker started"'));
      else await sleep(3000);
    }
    return started;
  };

  try {
    await processes.runToEnd('migrate', SERVICE_ENTRY_POINTS.migrate, [], env);
    // Quotas must never be what stops a load; plans are raised before any account exists.
    await pool.query('UPDATE plans SET monthly_quota = 2000000000');
    sim = processes.spawnService('simulator', 'sim', env, logFile('sim'), nodeArgs('sim'));
    const callCounts = path.join(opts.logDir, `${opts.label}-api-calls.json`);
    api = processes.spawnService('api', 'api', { ...env, VF_BENCH_CALL_COUNTS: callCounts }, logFile('api'), [
      ...nodeArgs('api'),
      '--require',
      CALL_COUNTER,
    ]);
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    await waitFor('listening port', sim, () => tcpOpen(simPort));
    await waitFor('healthy answer', api, async () => (await fetch(`${apiUrl}/api/v1/health`)).status === 200);
    if (opts.workers > 0) await startWorkers(opts.workers);
    const services = () => [sim!, api!, ...workers];
    return {
      label: opts.label,
      databaseName,
      apiUrl,
      env,
      pool,
      sim,
      api,
      workers,
      startWorkers,
      async stopWorkers() {
        for (const w of workers.splice(0)) await processes.stop(w.child);
      },
      apiCalls: () => readCallCounts(api!, callCounts),
      assertAlive() {
        for (const s of services()) {
          if (s.child.exitCode !== null || s.child.signalCode !== null) throw new Error(`${s.name} died during the run:\n${s.tail()}`);
        }
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
