import { envSchema, type AppConfig } from './config-schema';

export class ConfigError extends Error {}

/** Parses the environment once; fails fast with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const { value: v, error } = envSchema.validate(env, { abortEarly: false, convert: true });
  if (error) throw new ConfigError(`Invalid configuration: ${error.details.map((d) => d.message).join('; ')}`);
  const masterKey = Buffer.from(v.MASTER_KEY, 'base64');
  if (masterKey.length !== 32) throw new ConfigError('Invalid configuration: MASTER_KEY must decode to exactly 32 bytes');
  return {
    env: v.NODE_ENV,
    port: v.PORT,
    trustProxy: v.TRUST_PROXY,
    databaseUrl: v.DATABASE_URL,
    redisUrl: v.REDIS_URL,
    masterKey,
    certificateDir: v.CERT_DIR,
    logLevel: v.LOG_LEVEL,
    queuePrefix: v.QUEUE_PREFIX,
    authority: {
      mode: v.AUTHORITY_MODE,
      simulatorUrl: v.SIMULATOR_URL,
      simulatorCaPath: v.SIMULATOR_CA_PATH,
      useSealHosts: v.AEAT_SEAL_HOSTS,
      requestTimeoutMs: v.AUTHORITY_TIMEOUT_MS,
    },
    platformCertificate: v.PLATFORM_CERT_PATH ? { path: v.PLATFORM_CERT_PATH, password: v.PLATFORM_CERT_PASSWORD } : undefined,
    admin: v.ADMIN_USER ? { user: v.ADMIN_USER, password: v.ADMIN_PASSWORD } : undefined,
    sender: {
      backoffBaseMs: v.SENDER_BACKOFF_BASE_MS,
      backoffMaxMs: v.SENDER_BACKOFF_MAX_MS,
      errorAfterSeconds: v.SENDER_ERROR_AFTER_SECONDS,
      incidentAfterSeconds: v.SENDER_INCIDENT_AFTER_SECONDS,
      workerConcurrency: v.WORKER_CONCURRENCY,
    },
    reconcileIntervalMs: v.RECONCILE_INTERVAL_MS,
  };
}
