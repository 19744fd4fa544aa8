import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createSystem, createTaxpayer, registerAccount, type TestAccount } from '@vf/api/testing';
import { TEST_CERT_FILES, writeTestCertificates } from '@vf/certificates/testing';
import { waitUntil } from '@vf/core/testing';
import { createTestDatabase } from '@vf/db/testing';
import { freePort, pollWhileRunning, startService, stopService, type ServiceProcess } from '@vf/private-servers';
import { ProcessCoverage } from './process-coverage';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The simulator, the API and one worker as operators run them (compiled, each its own process), on a database of their
 * own, with the API's and the worker's coverage readable on demand. Taxpayers send under the platform's certificate.
 */
export async function startStack() {
  const db = await createTestDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'vf-trace-'));
  writeTestCertificates(dir, { serverHosts: ['127.0.0.1', 'localhost'] });
  const passwords = JSON.parse(readFileSync(path.join(dir, TEST_CERT_FILES.passwords), 'utf8')) as Record<string, string>;
  const [port, simPort, workerPort] = [await freePort(), await freePort(), await freePort()];
  const apiUrl = `http://127.0.0.1:${port}`;
  const services: ServiceProcess[] = [];
  const coverage = new Map<ServiceProcess, ProcessCoverage>();
  const start = (role: 'sim' | 'api' | 'worker', env: NodeJS.ProcessEnv, traced: boolean) => {
    const cover = traced ? new ProcessCoverage() : undefined;
    const service = startService(role, { ...env, ...cover?.env() });
    services.push(service);
    if (cover) coverage.set(service, cover);
    return service;
  };
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info' };
  const sim = start(
    'sim',
    // Its VIES stand-in on a port of its own choosing: this invoice asks VIES nothing, and 8444 may be taken.
    { ...base, SIM_CERT_DIR: dir, SIM_PORT: String(simPort), SIM_VIES_PORT: '0', SIM_WAIT_SECONDS: '0', SIM_VALIDATE_SCHEMA: 'false' },
    false,
  );
  await pollWhileRunning(sim, async () => sim.output.join('').includes('SOAP endpoint'), 'the simulator to start', 60_000, 50);
  const env: NodeJS.ProcessEnv = {
    ...base,
    PORT: String(port),
    WORKER_PORT: String(workerPort),
    DATABASE_URL: db.url,
    REDIS_URL,
    MASTER_KEY: randomBytes(32).toString('base64'),
    QUEUE_PREFIX: `{vftrace-${randomUUID()}}`,
    CERT_DIR: dir,
    AUTHORITY_MODE: 'simulator',
    SIMULATOR_URL: `https://127.0.0.1:${simPort}/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP`,
    SIMULATOR_CA_PATH: path.join(dir, TEST_CERT_FILES.ca),
    PLATFORM_CERT_PATH: path.join(dir, TEST_CERT_FILES.platform),
    PLATFORM_CERT_PASSWORD: passwords[TEST_CERT_FILES.platform],
    WORKER_NICE: '0',
    // The periodic reconciliation and sweeps are not the invoice's path: on a loaded machine their first tick could
    // fall inside the traced invoice and add their files to what it runs.
    RECONCILE_INTERVAL_MS: '3600000',
  };
  const api = start('api', env, true);
  const worker = start('worker', env, true);
  await pollWhileRunning(api, async () => (await request(apiUrl).get('/health/ready')).status === 200, 'the API to be ready', 60_000, 100);
  await pollWhileRunning(worker, async () => worker.output.join('').includes('"worker started"'), 'the worker to start', 60_000, 50);

  return {
    async party(): Promise<{ apiUrl: string; account: TestAccount; taxpayerId: string; systemId: string }> {
      const account = await registerAccount(apiUrl);
      return { apiUrl, account, systemId: await createSystem(apiUrl, account), taxpayerId: await createTaxpayer(apiUrl, account) };
    },
    async accepted(invoiceId: string): Promise<void> {
      await waitUntil(
        async () =>
          (await db.pool.query('SELECT authority_status FROM invoices WHERE id = $1', [invoiceId])).rows[0]?.authority_status ===
          'accepted',
        `invoice ${invoiceId} to be accepted`,
      );
    },
    /** The files the API and the worker ran since the last take. */
    async takeCoverage(): Promise<Set<string>> {
      const taken = await Promise.all([...coverage].map(([service, cover]) => cover.take(service)));
      return new Set(taken.flatMap((files) => [...files]));
    },
    async close(): Promise<void> {
      await Promise.all(services.map((service) => stopService(service, 'SIGKILL')));
      await db.destroy();
      for (const cover of coverage.values()) rmSync(cover.dir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
