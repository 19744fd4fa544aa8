import type { RedisConnection } from '@vf/queue';
import type { Logger } from 'pino';
import type { AppConfig } from '@vf/config';
import type { Readiness } from '@vf/lifecycle';
import type { Db } from '@vf/db';
import type { Queues } from '@vf/queue';
import type { ResolveHost } from '@vf/webhook-destination';
import type { ThrottleLimits } from './auth/credential-throttle';

export interface AppDeps {
  db: Db;
  /** Only pinged by the health check; the queues hold their own connection. */
  redis: RedisConnection;
  queues: Queues;
  logger: Logger;
  /** `passwordHashCost` is PASSWORD_HASH_COST (12 by default); tests pass a low one. */
  config: Pick<AppConfig, 'masterKey' | 'certificateDir' | 'admin' | 'queuePrefix' | 'passwordHashCost'> &
    Partial<Pick<AppConfig, 'trustProxy' | 'platformCertificate' | 'adminPort' | 'authority' | 'vies'>> & {
      /** WEBHOOK_ALLOWED_HOSTS; none (public destinations only) when absent. */
      webhooks?: Pick<AppConfig['webhooks'], 'allowedHosts'>;
    };
  /** The process's phase and dependency checks (main.ts starts it as `starting`); tests get one already serving. */
  readiness?: Readiness;
  /** How webhook destinations' host names are resolved; the system's resolver unless a test gives its own. */
  resolveHost?: ResolveHost;
  clock?: () => Date;
  /** How long a registration waits for Redis before leaving the invoice to the reconciler. */
  enqueueTimeoutMs?: number;
  healthTimeoutMs?: number;
  /** Password-attempt and registration limits; defaults in DEFAULT_THROTTLE_LIMITS. */
  throttleLimits?: Partial<ThrottleLimits>;
}
