import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AppConfig } from '@vf/config';
import type { Db } from '@vf/db';
import type { Queues } from '@vf/queue';
import type { ThrottleLimits } from './auth/credential-throttle';

export interface AppDeps {
  db: Db;
  /** Only pinged by the health check; the queues hold their own connection. */
  redis: Redis;
  queues: Queues;
  logger: Logger;
  config: Pick<AppConfig, 'masterKey' | 'certificateDir' | 'admin' | 'queuePrefix'> & Partial<Pick<AppConfig, 'trustProxy'>>;
  /** bcrypt cost: 12 in production; tests pass a low one. */
  passwordHashCost: number;
  clock?: () => Date;
  /** How long a registration waits for Redis before leaving the invoice to the reconciler. */
  enqueueTimeoutMs?: number;
  healthTimeoutMs?: number;
  /** Password-attempt and registration limits; defaults in DEFAULT_THROTTLE_LIMITS. */
  throttleLimits?: Partial<ThrottleLimits>;
}
