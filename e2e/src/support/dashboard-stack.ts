import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import IORedis from 'ioredis';
import pino from 'pino';
import { createSimulator, type Simulator } from '@vf/authority-sim';
import { createTestCa, issueCertificate, toPkcs12, type IssuedCertificate } from '@vf/certificates/testing';
import { loadConfig } from '@vf/config';
import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { createQueues } from '@vf/queue';
import { createWorkerRuntime, type WorkerRuntime } from '@vf/worker';
import { createApp } from '@vf/api';

export const PLATFORM_NIF = 'B85905495';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface E2eStack {
  baseUrl: string;
  db: TestDatabase;
  sim: Simulator;
  /** Issues throwaway certificates the simulator trusts. */
  ca: IssuedCertificate;
  /** Writes a PKCS#12 for `nif` to a temporary file (for a browser file input) and returns its path. */
  taxpayerP12(nif: string, password: string): string;
  /** Starts the worker: until then registered invoices wait as `queued`. */
  startWorker(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The whole service in this process, all real: a fresh database, Redis under a unique queue prefix, the authority
 * simulator over mutual TLS with a throwaway PKI (1 s flow-control wait), the API with its dashboard listening on an
 * ephemeral port, and one worker runtime, started on demand so a test can watch a status change live.
 */
export async function startE2eStack(): Promise<E2eStack> {
  const db = await createTestDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'vf-e2e-'));
  const ca = createTestCa();
  const serverCert = issueCertificate(ca, { commonName: 'simulator', serverHosts: ['127.0.0.1', 'localhost'] });
  const platformPassword = randomBytes(12).toString('base64url');
  writeFileSync(path.join(dir, 'ca.pem'), ca.certPem);
  writeFileSync(
    path.join(dir, 'platform.p12'),
    toPkcs12(issueCertificate(ca, { commonName: 'PLATAFORMA E2E SL', nif: PLATFORM_NIF }), platformPassword, ca),
  );

  const sim = await createSimulator({
    tls: { certPem: serverCert.certPem, keyPem: serverCert.keyPem, caPem: ca.certPem },
    collaboratorNifs: [PLATFORM_NIF],
    behaviour: { waitSeconds: 1 },
  });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    REDIS_URL,
    MASTER_KEY: randomBytes(32).toString('base64'),
    CERT_DIR: dir,
    QUEUE_PREFIX: `vfe2e-${randomUUID()}`,
    AUTHORITY_MODE: 'simulator',
    SIMULATOR_URL: sim.url,
    SIMULATOR_CA_PATH: path.join(dir, 'ca.pem'),
    VIES_URL: sim.viesUrl,
    AUTHORITY_TIMEOUT_MS: '5000',
    PLATFORM_CERT_PATH: path.join(dir, 'platform.p12'),
    PLATFORM_CERT_PASSWORD: platformPassword,
    SENDER_BACKOFF_BASE_MS: '50',
    SENDER_BACKOFF_MAX_MS: '500',
    RECONCILE_INTERVAL_MS: '2000',
    WORKER_ID: 'e2e-worker',
    SENDER_LEASE_TTL_MS: '3000',
    // A send whose answer is lost (the simulator shares this process and its cores with the browser) leaves a chain
    // the authority's first waiting time before the next: a second here, not a minute, or a test waits it out.
    SENDER_FIRST_WAIT_SECONDS: '1',
  });

  const redis = new IORedis(REDIS_URL, { maxRetriesPerRequest: null });
  const queues = createQueues(redis, config.queuePrefix);
  const app = createApp({
    db: db.db,
    redis,
    queues,
    logger: pino({ level: 'silent' }),
    config: {
      masterKey: config.masterKey,
      certificateDir: dir,
      admin: undefined,
      queuePrefix: config.queuePrefix,
      passwordHashCost: 4,
      // The census and VIES checks go to the simulator, as the worker's sends do.
      authority: config.authority,
      platformCertificate: config.platformCertificate,
      vies: config.vies,
    },
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const worker: WorkerRuntime = createWorkerRuntime({
    config,
    logger: pino({ level: 'silent' }),
  });

  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    db,
    sim,
    ca,
    taxpayerP12(nif, password) {
      const file = path.join(dir, `${nif}.p12`);
      writeFileSync(file, toPkcs12(issueCertificate(ca, { commonName: `CONTRIBUYENTE ${nif}`, nif }), password, ca));
      return file;
    },
    startWorker: () => worker.start(),
    async close() {
      await worker.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queues.submission.obliterate({ force: true });
      await queues.maintenance.obliterate({ force: true });
      await queues.taxIdLists.obliterate({ force: true });
      await queues.close();
      await redis.quit();
      await sim.close();
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
