import { createHash } from 'node:crypto';
import type { RedisConnection } from '@vf/queue';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../errors/api-error';
import { serviceUnavailable } from '../errors/dependency-failure';

export interface Limit {
  points: number;
  durationSeconds: number;
}

export interface ThrottleLimits {
  /** Failed password attempts for one account from one address: the user-facing pause. */
  accountFromAddress: Limit;
  /**
   * Failed attempts for one account from everywhere. Past this ceiling the account is not locked (anyone could then
   * lock its owner out) but slowed: each address gets `slowedFromAddress` attempts on it instead.
   */
  account: Limit;
  /** Attempts on an account over its ceiling, per address: bounds a guess spread over many addresses. */
  slowedFromAddress: Limit;
  /** Failed password attempts from one address over every account: bounds credential stuffing. */
  address: Limit;
  /** Accounts created from one address. */
  registrationsFromAddress: Limit;
}

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = {
  accountFromAddress: { points: 5, durationSeconds: 15 * 60 },
  account: { points: 100, durationSeconds: 15 * 60 },
  slowedFromAddress: { points: 1, durationSeconds: 15 * 60 },
  address: { points: 50, durationSeconds: 15 * 60 },
  registrationsFromAddress: { points: 60, durationSeconds: 60 * 60 },
};

export type PasswordAttempt =
  | { allowed: true; /** Further failures allowed before the pause for this account from this address. */ attemptsLeft: number }
  | { allowed: false; retryAfterSeconds: number };

export interface CredentialThrottle {
  readonly limits: ThrottleLimits;
  /**
   * Counts one password attempt before the password is checked (atomic in Redis, so a concurrent burst cannot
   * slip past the limit). Shared by dashboard sign-in and key regeneration: an account paused on one is paused on both.
   * Only an address is ever refused; attempts on the account from everywhere only narrow what each address may try.
   */
  beginPasswordAttempt(email: string, address: string): Promise<PasswordAttempt>;
  /** A right password gives its attempt back: only failures count toward the pause. */
  succeeded(email: string, address: string): Promise<void>;
  /** Counts one registration from this address; throws 429 once over the limit. */
  beginRegistration(address: string): Promise<void>;
}

// Redis keys show up in monitoring tools: emails only ever appear hashed.
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 32);
const accountKey = (email: string) => digest(email.trim().toLowerCase());

function retryAfterOf(rejection: RateLimiterRes): number {
  return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
}

export function tooManyAttempts(detail: string, retryAfterSeconds: number): ApiError {
  return new ApiError('too_many_attempts', detail, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
    extensions: { retry_after_seconds: retryAfterSeconds },
  });
}

/** Throttling on rate-limiter-flexible's Redis counters, under the deployment's Redis prefix. */
export function createCredentialThrottle(deps: {
  redis: RedisConnection;
  prefix: string;
  limits?: Partial<ThrottleLimits>;
}): CredentialThrottle {
  const limits = { ...DEFAULT_THROTTLE_LIMITS, ...deps.limits };
  const limiter = (name: string, limit: Limit) =>
    new RateLimiterRedis({
      storeClient: deps.redis,
      keyPrefix: `${deps.prefix}:throttle:${name}`,
      points: limit.points,
      duration: limit.durationSeconds,
    });
  const accountFromAddress = limiter('account-address', limits.accountFromAddress);
  const account = limiter('account', limits.account);
  const slowedFromAddress = limiter('slowed-account-address', limits.slowedFromAddress);
  const address = limiter('address', limits.address);
  const registrations = limiter('registrations', limits.registrationsFromAddress);

  // rate-limiter-flexible rejects with a RateLimiterRes when over the limit, with an Error when Redis fails: the
  // API's connection queues nothing while Redis is away, so that is a 503 at once, never a silent pass.
  async function consume(...steps: [RateLimiterRedis, string][]): Promise<RateLimiterRes[] | { retryAfterSeconds: number }> {
    const settled = await Promise.allSettled(steps.map(([l, key]) => l.consume(key)));
    const failure = settled.find((s) => s.status === 'rejected' && !(s.reason instanceof RateLimiterRes));
    if (failure) throw serviceUnavailable((failure as PromiseRejectedResult).reason);
    const over = settled
      .filter((s): s is PromiseRejectedResult => s.status === 'rejected')
      .map((s) => retryAfterOf(s.reason as RateLimiterRes));
    if (over.length > 0) return { retryAfterSeconds: Math.max(...over) };
    return settled.map((s) => (s as PromiseFulfilledResult<RateLimiterRes>).value);
  }

  return {
    limits,

    async beginPasswordAttempt(email, ip) {
      const key = accountKey(email);
      const pair = `${key}:${digest(ip)}`;
      // The account's own count never refuses: it goes past its ceiling (a stranger's guesses) without consequence
      // other than switching every address to the slowed allowance below.
      const overall = await account.penalty(key).catch((err: unknown) => {
        throw serviceUnavailable(err);
      });
      const slowed = overall.consumedPoints > limits.account.points;
      const steps: [RateLimiterRedis, string][] = [
        [accountFromAddress, pair],
        [address, digest(ip)],
      ];
      if (slowed) steps.push([slowedFromAddress, pair]);
      const result = await consume(...steps);
      if (!Array.isArray(result)) return { allowed: false, retryAfterSeconds: result.retryAfterSeconds };
      return { allowed: true, attemptsLeft: Math.min(result[0].remainingPoints, slowed ? result[2].remainingPoints : Infinity) };
    },

    async succeeded(email, ip) {
      const key = accountKey(email);
      const pair = `${key}:${digest(ip)}`;
      try {
        await Promise.all([
          accountFromAddress.reward(pair),
          account.reward(key),
          slowedFromAddress.reward(pair),
          address.reward(digest(ip)),
        ]);
      } catch (err) {
        throw serviceUnavailable(err);
      }
    },

    async beginRegistration(ip) {
      const result = await consume([registrations, digest(ip)]);
      if (!Array.isArray(result)) {
        throw tooManyAttempts('Too many accounts were created from your network recently; try again later.', result.retryAfterSeconds);
      }
    },
  };
}
