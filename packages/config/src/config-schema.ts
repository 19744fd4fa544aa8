import Joi from 'joi';
import { isAllowedHostEntry } from '@vf/webhook-destination';
import { parseDatabaseUrl } from './database-url';

export type AuthorityMode = 'simulator' | 'aeat';

/**
 * `session`: the service's connections are PostgreSQL sessions of their own (directly, or through a session-pooling
 * proxy). `transaction`: a transaction-pooling proxy (PgBouncer's pool_mode=transaction) lends a server connection
 * per transaction, so nothing may outlive a transaction on it: no named prepared statements, no startup options.
 */
export type DatabasePoolMode = 'session' | 'transaction';

export interface RedisSentinel {
  sentinels: { host: string; port: number }[];
  /** The name the sentinels monitor the primary under (`sentinel monitor <name> ...`). */
  name: string;
  password?: string;
}

export interface AppConfig {
  env: 'development' | 'test' | 'production';
  port: number;
  /** The API's operator listener (Bull Board, /metrics) apart from the tenants' port; undefined: both on `port`. */
  adminPort?: number;
  /** Express "trust proxy": false, a hop count, or addresses/subnets of the TLS-terminating proxies. */
  trustProxy: boolean | number | string;
  databaseUrl: string;
  databasePoolMode: DatabasePoolMode;
  /** One Redis URL; with `redisCluster`, one or more seed nodes of a Redis Cluster, comma-separated. */
  redisUrl: string;
  redisCluster: boolean;
  /** Redis under Sentinel: the primary is asked of these sentinels by its name; REDIS_URL then gives only credentials. */
  redisSentinel?: RedisSentinel;
  /** Apply the database migrations (under their lock) before serving, as `npm start` does; off by default. */
  migrateOnStart: boolean;
  /** SIGTERM to exit: past this, a process stops waiting for what it holds and exits anyway. */
  shutdownTimeoutMs: number;
  /** 32-byte key that encrypts PKCS#12 material and certificate passwords at rest. */
  masterKey: Buffer;
  /** Where the key was read from when MASTER_KEY is not set (undefined when it came from MASTER_KEY). */
  masterKeyFile?: string;
  /** Only certificate paths inside this directory are accepted on taxpayers. */
  certificateDir: string;
  logLevel: string;
  /** bcrypt cost of account passwords (each step doubles the time a hash takes). */
  passwordHashCost: number;
  queuePrefix: string;
  authority: {
    mode: AuthorityMode;
    /** Base URL of the simulator's VERI*FACTU SOAP endpoint (simulator mode only). */
    simulatorUrl: string;
    /** CA that signed the simulator's server certificate (simulator mode only). */
    simulatorCaPath?: string;
    /**
     * The simulator that answers sandbox scenario records, in either mode (docs/decisions/0041-scenarios-told-by-a-header.md):
     * SCENARIO_SIMULATOR_URL, by default SIMULATOR_URL. Scenario records never go to the authority.
     */
    scenarioSimulatorUrl: string;
    /** The CA of that simulator's server certificate (SCENARIO_SIMULATOR_CA_PATH, by default SIMULATOR_CA_PATH). */
    scenarioSimulatorCaPath?: string;
    /** Use AEAT's seal-certificate hosts (www10 / prewww10) in aeat mode. */
    useSealHosts: boolean;
    requestTimeoutMs: number;
    /**
     * HTTPS_PROXY: the egress proxy requests to the authority go through, by a CONNECT tunnel (its credentials, if
     * any, in the URL); NO_PROXY: the hosts reached directly. Absent: the authority is reached directly.
     */
    egressProxy?: { url: string; noProxy: string[] };
  };
  /**
   * VIES, the EU's check of VAT numbers (REST API): the European Commission's in `aeat` mode, the simulator's
   * stand-in in `simulator` mode, unless VIES_URL says otherwise. `requester`: the VAT number checks are asked under
   * when they name no taxpayer (VIES_REQUESTER_VAT), so that VIES gives each a consultation number.
   */
  vies: { url: string; requester?: { countryCode: string; number: string } };
  platformCertificate?: { path: string; password: string };
  admin?: { user: string; password: string };
  sender: {
    backoffBaseMs: number;
    /** Longest wait between two attempts of a failing send (at most an hour: the law wants hourly retries). */
    backoffMaxMs: number;
    /** A record still not through this long after its sends began failing shows as `error` (and keeps being retried). */
    errorAfterSeconds: number;
    /** Seconds after generation past which a delayed record is sent with Incidencia=S. */
    incidentAfterSeconds: number;
    /** A failing chain goes again no sooner than this (the authority's waiting time: once a minute). */
    retryMinSeconds: number;
    /** The waiting time a chain keeps until the authority's first answer tells it its own (TiempoEsperaEnvio, 60 s). */
    firstWaitSeconds: number;
    workerConcurrency: number;
    /** Sign each record (XAdES-EPES) with the certificate it is sent with, before its first send. */
    signRecords: boolean;
  };
  reconcileIntervalMs: number;
  /** A worker process's own settings. */
  worker: {
    /** Names this process on submissions and in lease owners. */
    id: string;
    /** The period a NO VERI*FACTU summary covers: six hours, shorter only in tests. */
    summaryPeriodSeconds: number;
    /** The optional periodic full check of every NO VERI*FACTU chain (records and events): off, daily or weekly. */
    periodicCheck: 'off' | 'daily' | 'weekly';
    /** How long a chain's send lease lives without renewal: how soon another worker takes over from a dead one. */
    leaseTtlMs: number;
    /**
     * Port of the process's own listener: `/health/live` and `/health/ready` for probes, and `GET /metrics` (operator
     * Basic auth) when admin credentials are set; 0: none.
     */
    port: number;
    /**
     * The process's CPU niceness (0-19): where the worker shares cores with the API, registrations (which a client waits
     * for) are served first and records are sent with the CPU left over (flow control gives them a minute anyway).
     */
    nice: number;
  };
  webhooks: {
    /** Longest wait for a receiver's answer; a slower one counts as a failed attempt. */
    timeoutMs: number;
    concurrency: number;
    /** How often the workers turn committed status changes into deliveries (and re-enqueue lost jobs). */
    sweepIntervalMs: number;
    /** Wait before each retry of a failed delivery; past the last one the delivery is given up. */
    retryDelaysMs: number[];
    /** Host names, addresses and CIDR ranges that may receive webhooks although they are not public. */
    allowedHosts: string[];
    /** Delivered and given-up deliveries older than this are deleted by the workers' sweep. */
    deliveryRetentionDays: number;
  };
}

// The message never repeats the value: a proxy URL may carry a password.
const proxyUrl = (name: string) =>
  Joi.string()
    .allow('')
    .uri({ scheme: ['http'] })
    .messages({
      'string.uri': `${name} must be an http:// URL (http://user:password@proxy:3128)`,
      'string.uriCustomScheme': `${name} must be an http:// URL (http://user:password@proxy:3128)`,
    });

export const envSchema = Joi.object({
  NODE_ENV: Joi.string().valid('development', 'test', 'production').default('development'),
  PORT: Joi.number().port().default(3000),
  TRUST_PROXY: Joi.alternatives(Joi.boolean(), Joi.number().integer().min(0), Joi.string()).default(false),
  // One host, or several comma-separated with target_session_attrs=read-write (a primary and its standbys).
  DATABASE_URL: Joi.string()
    .default('postgres://postgres@127.0.0.1:5432/verifactu')
    .custom((value: string, helpers) => {
      try {
        parseDatabaseUrl(value);
        return value;
      } catch (err) {
        return helpers.error('any.invalid', { reason: (err as Error).message });
      }
    })
    .messages({ 'any.invalid': '"DATABASE_URL" {#reason}' }),
  DATABASE_POOL_MODE: Joi.string().valid('session', 'transaction').default('session'),
  REDIS_URL: Joi.string()
    .pattern(/^rediss?:\/\/[^,\s]+(,rediss?:\/\/[^,\s]+)*$/)
    .default('redis://127.0.0.1:6379')
    .messages({ 'string.pattern.base': '"REDIS_URL" must be a redis:// or rediss:// URL (on a cluster, one or more, comma-separated)' }),
  REDIS_CLUSTER: Joi.boolean().default(false),
  REDIS_SENTINELS: Joi.string()
    .pattern(/^[^,:\s]+:\d{1,5}(,[^,:\s]+:\d{1,5})*$/)
    .messages({ 'string.pattern.base': '"REDIS_SENTINELS" must be host:port of each sentinel, comma-separated' }),
  REDIS_SENTINEL_NAME: Joi.string(),
  REDIS_SENTINEL_PASSWORD: Joi.string(),
  MIGRATE_ON_START: Joi.boolean().default(false),
  SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(100).default(25_000),
  ADMIN_PORT: Joi.number().port().invalid(0),
  // No built-in key: production needs MASTER_KEY or MASTER_KEY_FILE; elsewhere a random key is made once in the file.
  MASTER_KEY: Joi.string().base64(),
  MASTER_KEY_FILE: Joi.string(),
  CERT_DIR: Joi.string().default('var/certs'),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  // A hash tag ({...}) keeps every key of the queues in one Redis Cluster slot, as BullMQ needs; harmless on one server.
  QUEUE_PREFIX: Joi.string().default('{vf}'),
  PASSWORD_HASH_COST: Joi.number().integer().min(10).max(15).default(12),
  AUTHORITY_MODE: Joi.string().valid('simulator', 'aeat').default('simulator'),
  SIMULATOR_URL: Joi.string()
    .uri({ scheme: ['https'] })
    .default('https://127.0.0.1:8443/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP'),
  SIMULATOR_CA_PATH: Joi.string().default('var/certs/ca.pem'),
  SCENARIO_SIMULATOR_URL: Joi.string().uri({ scheme: ['https'] }),
  SCENARIO_SIMULATOR_CA_PATH: Joi.string(),
  VIES_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  VIES_REQUESTER_VAT: Joi.string()
    .pattern(/^[A-Z]{2}[0-9A-Z+*.]{2,12}$/)
    .messages({ 'string.pattern.base': 'VIES_REQUESTER_VAT must be a VAT number with its country prefix, such as ESB12345678' }),
  AEAT_SEAL_HOSTS: Joi.boolean().default(false),
  AUTHORITY_TIMEOUT_MS: Joi.number().integer().min(1000).default(60_000),
  // The standard variables, in either case. The proxy is spoken to in plain HTTP: the TLS inside the tunnel is ours.
  HTTPS_PROXY: proxyUrl('HTTPS_PROXY'),
  https_proxy: proxyUrl('https_proxy'),
  NO_PROXY: Joi.string().allow(''),
  no_proxy: Joi.string().allow(''),
  PLATFORM_CERT_PATH: Joi.string(),
  PLATFORM_CERT_PASSWORD: Joi.string().allow(''),
  ADMIN_USER: Joi.string(),
  ADMIN_PASSWORD: Joi.string().min(12),
  SENDER_BACKOFF_BASE_MS: Joi.number().integer().min(10).default(2_000),
  SENDER_BACKOFF_MAX_MS: Joi.number().integer().min(10).max(3_600_000).default(3_600_000),
  SENDER_ERROR_AFTER_SECONDS: Joi.number().integer().min(1).default(86_400),
  SENDER_INCIDENT_AFTER_SECONDS: Joi.number().integer().min(1).default(240),
  // Lower only in tests: the authority's waiting time, 60 s, bounds how often a failing chain may go again.
  SENDER_RETRY_MIN_SECONDS: Joi.number().min(0).max(3600).default(60),
  // Lower only in tests: the authority's waiting time, assumed for a chain until its first answer gives the real one.
  SENDER_FIRST_WAIT_SECONDS: Joi.number().integer().min(0).max(3600).default(60),
  WORKER_CONCURRENCY: Joi.number().integer().min(1).default(16),
  // Lower only in tests: the six hours of operation a NO VERI*FACTU summary covers (Orden HAC/1177/2024 art. 9.2).
  SUMMARY_PERIOD_SECONDS: Joi.number().integer().min(2).max(21_600).default(21_600),
  PERIODIC_CHECK: Joi.string().valid('off', 'daily', 'weekly').default('off'),
  SIGN_RECORDS: Joi.boolean().default(true),
  RECONCILE_INTERVAL_MS: Joi.number().integer().min(100).default(30_000),
  WORKER_ID: Joi.string().max(100),
  SENDER_LEASE_TTL_MS: Joi.number().integer().min(500).default(30_000),
  WORKER_PORT: Joi.number().port().default(0),
  WORKER_NICE: Joi.number().integer().min(0).max(19).default(10),
  WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
  WEBHOOK_CONCURRENCY: Joi.number().integer().min(1).default(8),
  WEBHOOK_SWEEP_INTERVAL_MS: Joi.number().integer().min(50).default(1_000),
  // Standard Webhooks' schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (27 h 35 min of retries).
  WEBHOOK_RETRY_DELAYS_MS: Joi.string()
    .pattern(/^\d+(,\d+)*$/)
    .default('5000,300000,1800000,7200000,18000000,36000000,36000000'),
  // Comma-separated; empty: webhooks go to public addresses only. `npm start` allows loopback for local receivers.
  WEBHOOK_ALLOWED_HOSTS: Joi.string()
    .allow('')
    .default('')
    .custom((value: string, helpers) => {
      const bad = value
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e !== '' && !isAllowedHostEntry(e));
      return bad.length === 0 ? value : helpers.error('any.invalid', { bad: bad.join(', ') });
    })
    .messages({ 'any.invalid': 'WEBHOOK_ALLOWED_HOSTS holds {#bad}: each entry must be a host name, an IP address or a CIDR range' }),
  WEBHOOK_DELIVERY_RETENTION_DAYS: Joi.number().integer().min(1).default(30),
})
  .and('PLATFORM_CERT_PATH', 'PLATFORM_CERT_PASSWORD')
  .and('ADMIN_USER', 'ADMIN_PASSWORD')
  .and('REDIS_SENTINELS', 'REDIS_SENTINEL_NAME')
  .with('REDIS_SENTINEL_PASSWORD', 'REDIS_SENTINELS')
  // The admin listener serves the operator only (Bull Board, metrics): without their credentials it would serve nothing.
  .when(Joi.object({ ADMIN_PORT: Joi.required() }).unknown(), {
    then: Joi.object()
      .and('ADMIN_PORT', 'ADMIN_USER', 'ADMIN_PASSWORD')
      .messages({ 'object.and': 'ADMIN_PORT needs ADMIN_USER and ADMIN_PASSWORD (the admin listener serves the operator only)' }),
  })
  .when(Joi.object({ REDIS_CLUSTER: Joi.valid(true, 'true').required() }).unknown(), {
    then: Joi.object({
      REDIS_SENTINELS: Joi.forbidden().messages({ 'any.unknown': 'REDIS_SENTINELS and REDIS_CLUSTER=true exclude each other' }),
      QUEUE_PREFIX: Joi.string()
        .pattern(/\{[^{}]+\}/)
        .messages({
          'string.pattern.base': 'QUEUE_PREFIX needs a hash tag such as {vf} on a Redis Cluster (BullMQ keeps each queue in one slot)',
        }),
    }),
  })
  .when(Joi.object({ NODE_ENV: Joi.valid('production').required() }).unknown(), {
    then: Joi.object()
      .or('MASTER_KEY', 'MASTER_KEY_FILE')
      .messages({ 'object.missing': 'MASTER_KEY (or MASTER_KEY_FILE) is required in production: 32 bytes, base64' }),
  })
  .unknown(true);
