import { hostname } from 'node:os';
import { envSchema, type AppConfig } from './config-schema';
import { DEFAULT_MASTER_KEY_FILE, ensureMasterKeyFile, parseMasterKey, readMasterKeyFile } from './master-key-file';

export class ConfigError extends Error {}

// MASTER_KEY wins; else MASTER_KEY_FILE. Outside production the file (var/master-key by default) is created with a
// random key on first use, so every local process shares one key and none is built into the code.
function masterKeyFrom(v: Record<string, string | undefined>): { key: Buffer; file?: string } {
  try {
    if (v.MASTER_KEY) return { key: parseMasterKey(v.MASTER_KEY, 'MASTER_KEY') };
    if (v.NODE_ENV === 'production') return { key: readMasterKeyFile(v.MASTER_KEY_FILE!), file: v.MASTER_KEY_FILE };
    const file = v.MASTER_KEY_FILE ?? DEFAULT_MASTER_KEY_FILE;
    return { key: ensureMasterKeyFile(file), file };
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ${(err as Error).message}`);
  }
}

function egressProxyFrom(v: Record<string, string | undefined>): AppConfig['authority']['egressProxy'] {
  const url = v.HTTPS_PROXY || v.https_proxy;
  if (!url) return undefined;
  const noProxy = (v.NO_PROXY ?? v.no_proxy ?? '')
    .split(/[,\s]+/)
    .map((e) => e.trim())
    .filter(Boolean);
  return { url, noProxy };
}

const VIES_REST_API = 'https://ec.europa.eu/taxation_customs/vies/rest-api';
/** The simulator's VIES stand-in listens beside it, on this port unless VIES_URL names another. */
const SIM_VIES_PORT = 8444;

function viesFrom(v: Record<string, string | undefined>): AppConfig['vies'] {
  const standIn = `http://${new URL(v.SIMULATOR_URL!).hostname}:${SIM_VIES_PORT}/taxation_customs/vies/rest-api`;
  const requester = v.VIES_REQUESTER_VAT;
  return {
    url: (v.VIES_URL ?? (v.AUTHORITY_MODE === 'aeat' ? VIES_REST_API : standIn)).replace(/\/+$/, ''),
    ...(requester && { requester: { countryCode: requester.slice(0, 2), number: requester.slice(2) } }),
  };
}

/** Parses the environment once; fails fast with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const { value: v, error } = envSchema.validate(env, { abortEarly: false, convert: true });
  if (error) throw new ConfigError(`Invalid configuration: ${error.details.map((d) => d.message).join('; ')}`);
  const { key: masterKey, file: masterKeyFile } = masterKeyFrom(v);
  return {
    env: v.NODE_ENV,
    port: v.PORT,
    adminPort: v.ADMIN_PORT,
    trustProxy: v.TRUST_PROXY,
    databaseUrl: v.DATABASE_URL,
    databasePoolMode: v.DATABASE_POOL_MODE,
    redisUrl: v.REDIS_URL,
    redisCluster: v.REDIS_CLUSTER,
    redisSentinel: v.REDIS_SENTINELS
      ? {
          sentinels: (v.REDIS_SENTINELS as string).split(',').map((entry) => {
            const [host, port] = entry.split(':');
            return { host, port: Number(port) };
          }),
          name: v.REDIS_SENTINEL_NAME,
          password: v.REDIS_SENTINEL_PASSWORD,
        }
      : undefined,
    migrateOnStart: v.MIGRATE_ON_START,
    shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
    masterKey,
    masterKeyFile,
    certificateDir: v.CERT_DIR,
    logLevel: v.LOG_LEVEL,
    passwordHashCost: v.PASSWORD_HASH_COST,
    queuePrefix: v.QUEUE_PREFIX,
    authority: {
      mode: v.AUTHORITY_MODE,
      simulatorUrl: v.SIMULATOR_URL,
      simulatorCaPath: v.SIMULATOR_CA_PATH,
      // The simulator beside the service: the one of simulator mode unless said otherwise.
      scenarioSimulatorUrl: v.SCENARIO_SIMULATOR_URL ?? v.SIMULATOR_URL,
      scenarioSimulatorCaPath: v.SCENARIO_SIMULATOR_CA_PATH ?? v.SIMULATOR_CA_PATH,
      useSealHosts: v.AEAT_SEAL_HOSTS,
      requestTimeoutMs: v.AUTHORITY_TIMEOUT_MS,
      egressProxy: egressProxyFrom(v),
    },
    vies: viesFrom(v),
    platformCertificate: v.PLATFORM_CERT_PATH ? { path: v.PLATFORM_CERT_PATH, password: v.PLATFORM_CERT_PASSWORD } : undefined,
    admin: v.ADMIN_USER ? { user: v.ADMIN_USER, password: v.ADMIN_PASSWORD } : undefined,
    sender: {
      backoffBaseMs: v.SENDER_BACKOFF_BASE_MS,
      backoffMaxMs: v.SENDER_BACKOFF_MAX_MS,
      errorAfterSeconds: v.SENDER_ERROR_AFTER_SECONDS,
      incidentAfterSeconds: v.SENDER_INCIDENT_AFTER_SECONDS,
      retryMinSeconds: v.SENDER_RETRY_MIN_SECONDS,
      firstWaitSeconds: v.SENDER_FIRST_WAIT_SECONDS,
      workerConcurrency: v.WORKER_CONCURRENCY,
      signRecords: v.SIGN_RECORDS,
    },
    reconcileIntervalMs: v.RECONCILE_INTERVAL_MS,
    worker: {
      id: v.WORKER_ID ?? `${hostname()}:${process.pid}`,
      summaryPeriodSeconds: v.SUMMARY_PERIOD_SECONDS,
      periodicCheck: v.PERIODIC_CHECK,
      leaseTtlMs: v.SENDER_LEASE_TTL_MS,
      port: v.WORKER_PORT,
      nice: v.WORKER_NICE,
    },
    webhooks: {
      timeoutMs: v.WEBHOOK_TIMEOUT_MS,
      concurrency: v.WEBHOOK_CONCURRENCY,
      sweepIntervalMs: v.WEBHOOK_SWEEP_INTERVAL_MS,
      retryDelaysMs: String(v.WEBHOOK_RETRY_DELAYS_MS).split(',').map(Number),
      allowedHosts: String(v.WEBHOOK_ALLOWED_HOSTS)
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean),
      deliveryRetentionDays: v.WEBHOOK_DELIVERY_RETENTION_DAYS,
    },
  };
}
