import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface LoginRateLimit {
  maxFailures: number;
  windowSeconds: number;
}

export const DEFAULT_LOGIN_RATE_LIMIT: LoginRateLimit = { maxFailures: 5, windowSeconds: 15 * 60 };

export interface LoginRateLimiter {
  /** Seconds until this email may be tried again from this address; 0 when it may be tried now. */
  blockedFor(email: string, ip: string): Promise<number>;
  /** Failures still allowed before the block starts. */
  attemptsLeft(email: string, ip: string): Promise<number>;
  recordFailure(email: string, ip: string): Promise<void>;
  reset(email: string, ip: string): Promise<void>;
  limit: LoginRateLimit;
}

/**
 * Failed sign-ins counted in Redis per email + client address, in a fixed window that starts at the first failure.
 * Keyed on both so an attacker cannot lock a user out from elsewhere by failing on purpose. The email is hashed:
 * Redis keys show up in monitoring tools.
 */
export function createLoginRateLimiter(deps: { redis: Redis; prefix: string; limit?: LoginRateLimit }): LoginRateLimiter {
  const limit = deps.limit ?? DEFAULT_LOGIN_RATE_LIMIT;
  const keyOf = (email: string, ip: string) =>
    `${deps.prefix}:dashboard:login-failures:${createHash('sha256').update(`${email.trim().toLowerCase()}\n${ip}`).digest('hex')}`;

  return {
    limit,

    async blockedFor(email, ip) {
      const key = keyOf(email, ip);
      const [count, ttl] = await Promise.all([deps.redis.get(key), deps.redis.ttl(key)]);
      if (Number(count ?? 0) < limit.maxFailures) return 0;
      return ttl > 0 ? ttl : limit.windowSeconds;
    },

    async attemptsLeft(email, ip) {
      return Math.max(0, limit.maxFailures - Number((await deps.redis.get(keyOf(email, ip))) ?? 0));
    },

    async recordFailure(email, ip) {
      const key = keyOf(email, ip);
      await deps.redis.multi().incr(key).expire(key, limit.windowSeconds, 'NX').exec();
    },

    async reset(email, ip) {
      await deps.redis.del(keyOf(email, ip));
    },
  };
}
