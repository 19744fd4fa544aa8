import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from './load-config';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'vf-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const KEY = Buffer.alloc(32, 1).toString('base64');

test('local defaults: simulator mode, sandbox-safe settings, no admin board', () => {
  const c = loadConfig({ MASTER_KEY: KEY });
  expect(c).toMatchObject({ env: 'development', port: 3000, trustProxy: false, authority: { mode: 'simulator', useSealHosts: false } });
  expect(c.masterKey).toHaveLength(32);
  expect(c.admin).toBeUndefined();
  expect(c.platformCertificate).toBeUndefined();
});

test('refuses to start in production without a master key, and never makes one there', () => {
  expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/MASTER_KEY \(or MASTER_KEY_FILE\) is required in production/);
  const file = path.join(dir, 'absent-key');
  expect(() => loadConfig({ NODE_ENV: 'production', MASTER_KEY_FILE: file })).toThrow(ConfigError);
  expect(() => statSync(file)).toThrow();
  expect(loadConfig({ NODE_ENV: 'production', MASTER_KEY: KEY }).masterKey).toEqual(Buffer.alloc(32, 1));
});

test('outside production, a random key is made once in the key file (0600) and reused; there is no built-in key', () => {
  const file = path.join(dir, 'var', 'master-key');
  const first = loadConfig({ MASTER_KEY_FILE: file });
  expect(first.masterKey).toHaveLength(32);
  expect(first.masterKey.equals(Buffer.alloc(32, 7))).toBe(false);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(first.masterKey)).toBe(true);
  expect(loadConfig({ MASTER_KEY_FILE: file }).masterKey.equals(first.masterKey)).toBe(true);
  const other = loadConfig({ MASTER_KEY_FILE: path.join(dir, 'other-key') });
  expect(other.masterKey.equals(first.masterKey)).toBe(false);
});

test('the bcrypt cost of passwords is 12 unless set, between 10 and 15', () => {
  expect(loadConfig({ MASTER_KEY: KEY }).passwordHashCost).toBe(12);
  expect(loadConfig({ MASTER_KEY: KEY, PASSWORD_HASH_COST: '14' }).passwordHashCost).toBe(14);
  expect(() => loadConfig({ MASTER_KEY: KEY, PASSWORD_HASH_COST: '9' })).toThrow(/PASSWORD_HASH_COST/);
  expect(() => loadConfig({ MASTER_KEY: KEY, PASSWORD_HASH_COST: '16' })).toThrow(/PASSWORD_HASH_COST/);
});

test('a master key of the wrong length is refused', () => {
  expect(() => loadConfig({ MASTER_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/MASTER_KEY must hold 32 bytes/);
});

test('lists every problem at once, and needs both halves of paired settings', () => {
  let message = '';
  try {
    loadConfig({ PORT: 'eighty', AUTHORITY_MODE: 'production', ADMIN_USER: 'ops', PLATFORM_CERT_PATH: '/x.p12' });
  } catch (err) {
    message = (err as Error).message;
  }
  expect(message).toMatch(/PORT/);
  expect(message).toMatch(/AUTHORITY_MODE/);
  expect(message).toMatch(/ADMIN_PASSWORD/);
  expect(message).toMatch(/PLATFORM_CERT_PASSWORD/);
});

test('aeat mode and proxy settings are read as given', () => {
  const c = loadConfig({
    MASTER_KEY: KEY,
    AUTHORITY_MODE: 'aeat',
    AEAT_SEAL_HOSTS: 'true',
    TRUST_PROXY: '1',
    ADMIN_USER: 'ops',
    ADMIN_PASSWORD: 'a long admin password',
  });
  expect(c.authority).toMatchObject({ mode: 'aeat', useSealHosts: true });
  expect(c.trustProxy).toBe(1);
  expect(c.admin).toEqual({ user: 'ops', password: 'a long admin password' });
});

test('retries have no attempt limit: an hourly cap at most, and a day before a waiting record shows error', () => {
  expect(loadConfig({}).sender).toMatchObject({
    backoffBaseMs: 2_000,
    backoffMaxMs: 3_600_000,
    errorAfterSeconds: 86_400,
    retryMinSeconds: 60,
    firstWaitSeconds: 60,
  });
  expect(loadConfig({}).sender).not.toHaveProperty('maxAttempts');
  expect(loadConfig({ SENDER_FIRST_WAIT_SECONDS: '2' }).sender.firstWaitSeconds).toBe(2);
  expect(loadConfig({}).worker.summaryPeriodSeconds).toBe(21_600);
  expect(loadConfig({ SUMMARY_PERIOD_SECONDS: '4' }).worker.summaryPeriodSeconds).toBe(4);
  expect(loadConfig({}).worker.periodicCheck).toBe('off');
  expect(loadConfig({ PERIODIC_CHECK: 'weekly' }).worker.periodicCheck).toBe('weekly');
  expect(() => loadConfig({ PERIODIC_CHECK: 'hourly' })).toThrow(/PERIODIC_CHECK/);
  expect(() => loadConfig({ SENDER_BACKOFF_MAX_MS: '3600001' })).toThrow(/SENDER_BACKOFF_MAX_MS/);
  expect(loadConfig({ SENDER_BACKOFF_MAX_MS: '600000', SENDER_ERROR_AFTER_SECONDS: '3600' }).sender).toMatchObject({
    backoffMaxMs: 600_000,
    errorAfterSeconds: 3_600,
  });
});

test('a worker names itself after its host and process unless told, and keeps a send lease 30 s by default', () => {
  const { worker } = loadConfig({ MASTER_KEY: KEY });
  expect(worker.id).toMatch(new RegExp(`:${process.pid}$`));
  expect(worker).toMatchObject({ leaseTtlMs: 30_000, port: 0 });
  expect(loadConfig({ MASTER_KEY: KEY, WORKER_ID: 'w-7', SENDER_LEASE_TTL_MS: '5000' }).worker).toEqual({
    id: 'w-7',
    leaseTtlMs: 5_000,
    port: 0,
    nice: 10,
    summaryPeriodSeconds: 21_600,
    periodicCheck: 'off',
  });
  // A lease too short to renew is refused at start-up.
  expect(() => loadConfig({ MASTER_KEY: KEY, SENDER_LEASE_TTL_MS: '10' })).toThrow(/SENDER_LEASE_TTL_MS/);
});

test("a worker's own listener is off unless a port is given; the API's admin listener needs the operator's credentials", () => {
  const admin = { ADMIN_USER: 'operator', ADMIN_PASSWORD: 'a-long-admin-password' };
  // Probes need no credentials: a worker's listener opens without them (and then serves no metrics).
  expect(loadConfig({ MASTER_KEY: KEY, WORKER_PORT: '9464' }).worker.port).toBe(9464);
  expect(() => loadConfig({ MASTER_KEY: KEY, WORKER_PORT: 'nine' })).toThrow(/WORKER_PORT/);
  expect(loadConfig({ MASTER_KEY: KEY }).adminPort).toBeUndefined();
  expect(loadConfig({ MASTER_KEY: KEY, ADMIN_PORT: '3001', ...admin }).adminPort).toBe(3001);
  expect(() => loadConfig({ MASTER_KEY: KEY, ADMIN_PORT: '3001' })).toThrow(/ADMIN_PORT needs ADMIN_USER and ADMIN_PASSWORD/);
});

test('operations defaults: no migration at start, a 25 s shutdown bound, sessions of its own, one Redis server', () => {
  expect(loadConfig({ MASTER_KEY: KEY })).toMatchObject({
    migrateOnStart: false,
    shutdownTimeoutMs: 25_000,
    databasePoolMode: 'session',
    redisCluster: false,
    queuePrefix: '{vf}',
  });
  expect(loadConfig({ MASTER_KEY: KEY, MIGRATE_ON_START: 'true', DATABASE_POOL_MODE: 'transaction' })).toMatchObject({
    migrateOnStart: true,
    databasePoolMode: 'transaction',
  });
  expect(() => loadConfig({ MASTER_KEY: KEY, DATABASE_POOL_MODE: 'statement' })).toThrow(/DATABASE_POOL_MODE/);
});

test('a Redis Cluster takes several seed URLs and needs a hash-tagged queue prefix', () => {
  const seeds = 'redis://10.0.0.1:7000,redis://10.0.0.2:7000';
  expect(loadConfig({ MASTER_KEY: KEY, REDIS_CLUSTER: 'true', REDIS_URL: seeds })).toMatchObject({ redisCluster: true, redisUrl: seeds });
  expect(() => loadConfig({ MASTER_KEY: KEY, REDIS_CLUSTER: 'true', QUEUE_PREFIX: 'vf' })).toThrow(/QUEUE_PREFIX needs a hash tag/);
  expect(loadConfig({ MASTER_KEY: KEY, QUEUE_PREFIX: 'vf' }).queuePrefix).toBe('vf');
  expect(() => loadConfig({ MASTER_KEY: KEY, REDIS_URL: 'http://10.0.0.1' })).toThrow(/REDIS_URL/);
});

test('webhooks go to public hosts only unless WEBHOOK_ALLOWED_HOSTS lists names, addresses or ranges; deliveries are kept 30 days', () => {
  expect(loadConfig({ MASTER_KEY: KEY }).webhooks).toMatchObject({ allowedHosts: [], deliveryRetentionDays: 30 });
  const allowed = loadConfig({
    MASTER_KEY: KEY,
    WEBHOOK_ALLOWED_HOSTS: 'hooks.internal, 10.0.4.7 ,10.0.5.0/24,::1',
    WEBHOOK_DELIVERY_RETENTION_DAYS: '7',
  });
  expect(allowed.webhooks).toMatchObject({ allowedHosts: ['hooks.internal', '10.0.4.7', '10.0.5.0/24', '::1'], deliveryRetentionDays: 7 });
  expect(() => loadConfig({ MASTER_KEY: KEY, WEBHOOK_ALLOWED_HOSTS: 'ok.example,https://x/,10.0.0.0/99' })).toThrow(
    /WEBHOOK_ALLOWED_HOSTS holds https:\/\/x\/, 10\.0\.0\.0\/99/,
  );
  expect(() => loadConfig({ MASTER_KEY: KEY, WEBHOOK_DELIVERY_RETENTION_DAYS: '0' })).toThrow(/WEBHOOK_DELIVERY_RETENTION_DAYS/);
});

test('a worker yields the CPU to the API (niceness 10) unless told otherwise, within what the system allows', () => {
  expect(loadConfig({ MASTER_KEY: KEY }).worker.nice).toBe(10);
  expect(loadConfig({ MASTER_KEY: KEY, WORKER_NICE: '0' }).worker.nice).toBe(0);
  expect(() => loadConfig({ MASTER_KEY: KEY, WORKER_NICE: '20' })).toThrow(/WORKER_NICE/);
  expect(() => loadConfig({ MASTER_KEY: KEY, WORKER_NICE: '-5' })).toThrow(/WORKER_NICE/);
});

test('workers sign records unless SIGN_RECORDS=false', () => {
  expect(loadConfig({ MASTER_KEY: KEY }).sender.signRecords).toBe(true);
  expect(loadConfig({ MASTER_KEY: KEY, SIGN_RECORDS: 'false' }).sender.signRecords).toBe(false);
  expect(() => loadConfig({ MASTER_KEY: KEY, SIGN_RECORDS: 'sometimes' })).toThrow(/SIGN_RECORDS/);
});

test('HTTPS_PROXY and NO_PROXY (either case) set the egress proxy; a malformed one is refused without repeating it', () => {
  expect(loadConfig({ MASTER_KEY: KEY }).authority.egressProxy).toBeUndefined();
  expect(
    loadConfig({ MASTER_KEY: KEY, HTTPS_PROXY: 'http://ops:s3cret@proxy.internal:3128', NO_PROXY: 'localhost, .internal,10.0.0.1' })
      .authority.egressProxy,
  ).toEqual({ url: 'http://ops:s3cret@proxy.internal:3128', noProxy: ['localhost', '.internal', '10.0.0.1'] });
  expect(loadConfig({ MASTER_KEY: KEY, https_proxy: 'http://proxy:3128', no_proxy: '*' }).authority.egressProxy).toEqual({
    url: 'http://proxy:3128',
    noProxy: ['*'],
  });
  for (const bad of ['proxy:3128', 'socks5://ops:s3cret@proxy:1080', 'http://ops:s3cret@']) {
    let message = '';
    try {
      loadConfig({ MASTER_KEY: KEY, HTTPS_PROXY: bad });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/HTTPS_PROXY must be an http:\/\/ URL/);
    expect(message).not.toContain('s3cret');
  }
});

test('Redis under Sentinel takes every sentinel and the primary’s name together, and never with a Redis Cluster', () => {
  const sentinels = { REDIS_SENTINELS: '10.0.0.1:26379,sentinel-2:26380', REDIS_SENTINEL_NAME: 'vf' };
  expect(loadConfig({ MASTER_KEY: KEY, ...sentinels, REDIS_SENTINEL_PASSWORD: 'pw' }).redisSentinel).toEqual({
    sentinels: [
      { host: '10.0.0.1', port: 26379 },
      { host: 'sentinel-2', port: 26380 },
    ],
    name: 'vf',
    password: 'pw',
  });
  expect(loadConfig({ MASTER_KEY: KEY }).redisSentinel).toBeUndefined();
  expect(() => loadConfig({ MASTER_KEY: KEY, REDIS_SENTINELS: '10.0.0.1:26379' })).toThrow(/REDIS_SENTINEL_NAME/);
  expect(() => loadConfig({ MASTER_KEY: KEY, ...sentinels, REDIS_SENTINELS: '10.0.0.1' })).toThrow(/REDIS_SENTINELS" must be host:port/);
  expect(() => loadConfig({ MASTER_KEY: KEY, ...sentinels, REDIS_CLUSTER: 'true' })).toThrow(/exclude each other/);
});

test("VIES: the European Commission's in aeat mode, the simulator's stand-in otherwise, VIES_URL over both", () => {
  expect(loadConfig({ MASTER_KEY: KEY, AUTHORITY_MODE: 'aeat' }).vies).toEqual({
    url: 'https://ec.europa.eu/taxation_customs/vies/rest-api',
  });
  expect(loadConfig({ MASTER_KEY: KEY, SIMULATOR_URL: 'https://sim.internal:9443/wlpl/x' }).vies.url).toBe(
    'http://sim.internal:8444/taxation_customs/vies/rest-api',
  );
  expect(loadConfig({ MASTER_KEY: KEY, AUTHORITY_MODE: 'aeat', VIES_URL: 'http://127.0.0.1:9/rest-api/' }).vies.url).toBe(
    'http://127.0.0.1:9/rest-api',
  );
  expect(loadConfig({ MASTER_KEY: KEY, VIES_REQUESTER_VAT: 'ESB85905495' }).vies.requester).toEqual({
    countryCode: 'ES',
    number: 'B85905495',
  });
  expect(() => loadConfig({ MASTER_KEY: KEY, VIES_REQUESTER_VAT: 'B85905495' })).toThrow(/VIES_REQUESTER_VAT/);
});
