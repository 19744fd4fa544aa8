import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AppConfig } from '@vf/config';
import type { Db } from '@vf/db';
import type { Queues } from '@vf/queue';

export interface AppDeps {
  db: Db;
  /** Only pinged by the health check; the queues hold their own connection. */
  redis: Redis;
  queues: Queues;
  logger: Logger;
  config: Pick<AppConfig, 'masterKey' | 'certificateDir' | 'admin'> & Partial<Pick<AppConfig, 'trustProxy'>>;
  /** bcrypt cost: 12 in production; tests pass a low one. */
  passwordHashCost: number;
  clock?: () => Date;
  /** How long a registration waits for Redis before leaving the invoice to the reconciler. */
  enqueueTimeoutMs?: number;
  healthTimeoutMs?: number;
}
