import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import pino from 'pino';
import request from 'supertest';
import { sql } from 'drizzle-orm';
import { createApp } from '@vf/api';
import { createSystem, invoiceBody, registerAccount, type TestAccount } from '@vf/api/testing';
import { createSimulator, type Simulator, type SimulatorBehaviour } from '@vf/authority-sim';
import { encryptSecret } from '@vf/certificates';
import { createTestCa, issueCertificate, toPkcs12, type IssuedCertificate } from '@vf/certificates/testing';
import { loadConfig, type AppConfig } from '@vf/config';
import type { AuthorityStatus, Database } from '@vf/db';
import { createTestDatabase } from '@vf/db/testing';
import { chainJobId, createQueues, createRedis, type Queues } from '@vf/queue';
import { createLogger } from '@vf/logger';
import { createWorkerRuntime, type WorkerRuntime } from '@vf/worker';
import { testNif } from './test-nifs';
import { waitUntil } from '@vf/core/testing';

export const PLATFORM_NIF = 'B85905495';
const P12_PASSWORD = 'test-p12-password';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Party {
  account: TestAccount;
  systemId: string;
}

export interface InvoiceState {
  id: string;
  status: AuthorityStatus;
  code: number | null;
  message: string | null;
  csv: string | null;
  lastError: string | null;
  sendAttempts: number;
  nextAttemptAt: Date | null;
  hash: string;
  chainSeq: number;
}

/** A database of its own that the env destroys when it closes. */
export interface DisposableDatabase extends Database {
  url: string;
  destroy(): Promise<void>;
}

export interface WorkerTestEnvOptions {
  /** Defaults to a clone of the jest template (createTestDatabase). */
  database?: () => Promise<DisposableDatabase>;
  behaviour?: Partial<SimulatorBehaviour>;
  unknownNifs?: string[];
  /** Extra environment for the workers (in-process and child processes). */
  env?: Record<string, string>;
}

/**
 * Everything a worker test needs, all real: a fresh PostgreSQL database, Redis under a unique prefix, a throwaway
 * PKI, the authority simulator over mutual TLS, the API (in-process) to register invoices with real chains and
 * hashes, and the worker either in-process or as child processes started with the same environment.
 */
export class WorkerTestEnv {
  /** Moves the simulator's clock (e.g. to make records look late to it). */
  simClockOffsetMs = 0;
  private readonly runtimes: WorkerRuntime[] = [];
  private nifCounter = 0;

  private constructor(
    readonly db: DisposableDatabase,
    readonly sim: Simulator,
    readonly api: Express,
    readonly apiQueues: Queues,
    readonly ca: IssuedCertificate,
    readonly env: Record<string, string>,
    readonly config: AppConfig,
    private readonly dir: string,
    private readonly closeRedis: () => Promise<void>,
  ) {}

  static async create(opts: WorkerTestEnvOptions = {}): Promise<WorkerTestEnv> {
    const db = await (opts.database ?? createTestDatabase)();
    const dir = mkdtempSync(join(tmpdir(), 'vf-worker-test-'));
    const ca = createTestCa();
    const server = issueCertificate(ca, { commonName: 'simulator', serverHosts: ['127.0.0.1', 'localhost'] });
    const platform = issueCertificate(ca, { commonName: 'PLATAFORMA COLABORADORA SL', nif: PLATFORM_NIF });
    writeFileSync(join(dir, 'ca.pem'), ca.certPem);
    writeFileSync(join(dir, 'platform.p12'), toPkcs12(platform, P12_PASSWORD, ca));

    let env!: WorkerTestEnv;
    const sim = await createSimulator({
      tls: { certPem: server.certPem, keyPem: server.keyPem, caPem: ca.certPem },
      collaboratorNifs: [PLATFORM_NIF],
      unknownNifs: opts.unknownNifs,
      // With the XSD check on, the simulator reads each message into a DOM first (most of the check's cost, about
      // half a second for a 1,000-record message). The builders' output is checked against the XSDs in @vf/xml's
      // tests for every operation; tests that check the messages as sent turn it on (chain-operations,
      // submission-outcomes).
      behaviour: { waitSeconds: 1, validateSchema: false, ...opts.behaviour },
      now: () => new Date(Date.now() + (env?.simClockOffsetMs ?? 0)),
    });
    // Hash-tagged, as a Redis Cluster needs (a test may point REDIS_URL at one with REDIS_CLUSTER).
    const prefix = `{vftest-${randomUUID()}}`;
    const vars: Record<string, string> = {
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      REDIS_URL,
      MASTER_KEY: randomBytes(32).toString('base64'),
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: process.env.WORKER_TEST_LOG_LEVEL ?? 'info',
      AUTHORITY_MODE: 'simulator',
      SIMULATOR_URL: sim.url,
      SIMULATOR_CA_PATH: join(dir, 'ca.pem'),
      VIES_URL: sim.viesUrl,
      // Generous: on a loaded 2-core machine the simulator's schema validation of a full message takes seconds.
      AUTHORITY_TIMEOUT_MS: '20000',
      PLATFORM_CERT_PATH: join(dir, 'platform.p12'),
      PLATFORM_CERT_PASSWORD: P12_PASSWORD,
      SENDER_BACKOFF_BASE_MS: '20',
      SENDER_BACKOFF_MAX_MS: '200',
      // No floor on retries here (60 s in production): observed-behaviours.test.ts sets one and checks it.
      SENDER_RETRY_MIN_SECONDS: '0',
      WORKER_CONCURRENCY: '8',
      RECONCILE_INTERVAL_MS: '2000',
      SENDER_LEASE_TTL_MS: '3000',
      // The tests' webhook receivers listen on this machine.
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
      // The machine's own proxy settings are not the service's: the simulator is reached directly unless a test sets a proxy.
      HTTPS_PROXY: '',
      https_proxy: '',
      ...opts.env,
    };
    const config = loadConfig(vars);
    const redis = createRedis(config);
    const apiQueues = createQueues(redis, prefix);
    const api = createApp({
      db: db.db,
      redis,
      queues: apiQueues,
      logger: pino({ level: 'silent' }),
      config: {
        masterKey: config.masterKey,
        certificateDir: dir,
        admin: undefined,
        queuePrefix: prefix,
        passwordHashCost: 4,
        platformCertificate: config.platformCertificate,
        authority: config.authority,
        vies: config.vies,
        webhooks: config.webhooks,
      },
    });
    env = new WorkerTestEnv(db, sim, api, apiQueues, ca, vars, config, dir, async () => {
      await redis.quit();
    });
    return env;
  }

  /** An account on a plan large enough for the test, with one computer system. */
  async party(): Promise<Party> {
    const account = await registerAccount(this.api);
    await this.db.db.execute(sql`UPDATE accounts SET plan_id = 'business' WHERE email = ${account.email}`);
    const systemId = await createSystem(this.api, account);
    return { account, systemId };
  }

  /**
   * A taxpayer with its own certificate (holder = its NIF unless `holderNif` says otherwise), or none
   * (social-collaborator mode).
   */
  async taxpayer(
    party: Party,
    opts: { certificate: 'own' | 'none'; nif?: string; holderNif?: string; isProduction?: boolean } = { certificate: 'own' },
  ): Promise<{ id: string; nif: string }> {
    const nif = opts.nif ?? this.freshNif();
    const body: Record<string, unknown> = { nif, name: `CONTRIBUYENTE ${nif}`, is_production: opts.isProduction ?? false };
    if (opts.certificate === 'own') Object.assign(body, this.certificateBody(opts.holderNif ?? nif));
    const res = await request(this.api).post('/api/v1/taxpayers').set(party.account.auth).send(body).expect(201);
    return { id: res.body.data.id, nif };
  }

  /** A NIF no other taxpayer of this env uses. */
  freshNif(): string {
    return testNif(++this.nifCounter + Math.floor(Math.random() * 100_000) * 100);
  }

  /** The API body fields of a new PKCS#12 whose holder is `holderNif`. */
  certificateBody(holderNif: string): { certificate_p12_base64: string; certificate_password: string } {
    const p12 = toPkcs12(issueCertificate(this.ca, { commonName: `TITULAR ${holderNif}`, nif: holderNif }), P12_PASSWORD, this.ca);
    return { certificate_p12_base64: p12.toString('base64'), certificate_password: P12_PASSWORD };
  }

  /** Writes a platform PKCS#12 for `nif` and returns the worker environment that uses it. */
  platformCertificateEnv(nif: string): Record<string, string> {
    const path = join(this.dir, `platform-${nif}.p12`);
    writeFileSync(path, toPkcs12(issueCertificate(this.ca, { commonName: `PLATAFORMA ${nif}`, nif }), P12_PASSWORD, this.ca));
    return { PLATFORM_CERT_PATH: path, PLATFORM_CERT_PASSWORD: P12_PASSWORD };
  }

  /** Replaces a taxpayer's stored certificate with one that has expired since it was uploaded. */
  async expireCertificate(taxpayer: { id: string; nif: string }): Promise<void> {
    const expired = issueCertificate(this.ca, {
      commonName: `CONTRIBUYENTE ${taxpayer.nif}`,
      nif: taxpayer.nif,
      notBefore: new Date(Date.now() - 400 * 86_400_000),
      notAfter: new Date(Date.now() - 86_400_000),
    });
    const p12 = encryptSecret(this.config.masterKey, toPkcs12(expired, P12_PASSWORD, this.ca));
    await this.db.db.execute(sql`UPDATE taxpayers SET certificate_p12 = ${p12}, updated_at = now() WHERE id = ${taxpayer.id}`);
  }

  /** Registers invoices through the API (real chain, real huella), in batches of up to 1,000; the API wakes their chain. */
  async register(party: Party, taxpayerId: string, count: number, overrides: Record<string, unknown> = {}): Promise<string[]> {
    const ids: string[] = [];
    for (let done = 0; done < count; done += 1000) {
      const items = Array.from({ length: Math.min(1000, count - done) }, () => invoiceBody(taxpayerId, party.systemId, overrides));
      const res = await request(this.api).post('/api/v1/invoices/batch').set(party.account.auth).send(items);
      if (res.status !== 201)
        throw new Error(
          `registration failed: ${res.status} ${JSON.stringify(res.body.results?.find((r: { status: number }) => r.status !== 201) ?? res.body)}`,
        );
      ids.push(...res.body.results.map((r: { data: { id: string } }) => r.data.id));
    }
    return ids;
  }

  /** An in-process worker (its own composition root, pool and Redis connections), closed with the env. */
  async startWorker(patch: Record<string, string> = {}): Promise<WorkerRuntime> {
    const vars = { ...this.env, ...patch };
    const workerId = `inproc-${this.runtimes.length + 1}`;
    const runtime = createWorkerRuntime({
      config: loadConfig({ ...vars, WORKER_ID: workerId }),
      logger: createLogger({ service: 'worker', level: process.env.WORKER_TEST_LOG_LEVEL ?? 'silent', base: { workerId } }),
    });
    this.runtimes.push(runtime);
    await runtime.start();
    return runtime;
  }

  /** The deterministic id of the job of a record's chain. */
  async jobId(invoiceId: string): Promise<string> {
    const r = await this.db.db.execute<{ chain_id: string }>(sql`SELECT chain_id FROM invoices WHERE id = ${invoiceId}`);
    return chainJobId(r.rows[0].chain_id);
  }

  async states(ids: string[]): Promise<InvoiceState[]> {
    const r = await this.db.db.execute(sql`
      SELECT id, authority_status AS status, authority_code AS code, authority_message AS message, authority_csv AS csv,
        last_error AS "lastError", send_attempts AS "sendAttempts", next_attempt_at AS "nextAttemptAt", hash, chain_seq AS "chainSeq"
      FROM invoices WHERE id = ANY(${sql.param(ids)}::uuid[]) ORDER BY chain_seq`);
    return r.rows as unknown as InvoiceState[];
  }

  /** Waits until every invoice is in one of `statuses`. */
  async reach(ids: string[], statuses: AuthorityStatus[], timeoutMs?: number): Promise<InvoiceState[]> {
    return waitUntil(
      async () => {
        const states = await this.states(ids);
        return states.every((s) => statuses.includes(s.status)) && states;
      },
      `${ids.length} invoices to reach ${statuses.join(' or ')}`,
      timeoutMs,
    );
  }

  /** Waits until none of the invoices is still queued or sent. */
  async settled(ids: string[], timeoutMs?: number): Promise<InvoiceState[]> {
    return waitUntil(
      async () => {
        const states = await this.states(ids);
        return states.every((s) => s.status !== 'queued' && s.status !== 'sent') && states;
      },
      `${ids.length} invoices to reach a final status`,
      timeoutMs,
    );
  }

  async close(): Promise<void> {
    for (const runtime of this.runtimes.splice(0)) await runtime.close();
    await this.apiQueues.submission.obliterate({ force: true });
    await this.apiQueues.maintenance.obliterate({ force: true });
    await this.apiQueues.close();
    await this.closeRedis();
    await this.sim.close();
    await this.db.destroy();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
