import bcrypt from 'bcrypt';
import pLimit from 'p-limit';
import { ApiError } from '../errors/api-error';
import { loadOnce } from '../shared/load-once';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Also spends a bcrypt comparison when there is no stored hash, so unknown emails take as long as wrong passwords. */
  verify(password: string, storedHash: string | undefined): Promise<boolean>;
}

export interface HasherPools {
  /** bcrypt runs at once for new passwords (registration) and for checks (sign-in, key regeneration), each. */
  concurrency: number;
  /** Checks waiting beyond this are refused at once: a flood gets 503s instead of a queue that grows without end. */
  maxQueuedChecks: number;
}

const DEFAULT_POOLS: HasherPools = { concurrency: 2, maxQueuedChecks: 64 };

/**
 * bcrypt in two small pools. Checking passwords (the thing an attacker can trigger without an account) has its own
 * pool, so a flood of guesses waits behind itself and never starves registrations, and it is refused once its queue
 * is full. Both pools together stay within libuv's default four threads.
 */
export function createPasswordHasher(cost: number, pools: HasherPools = DEFAULT_POOLS): PasswordHasher {
  const hashing = pLimit(pools.concurrency);
  const checking = pLimit(pools.concurrency);
  // A hash to compare against when there is none; made once (a failure is not kept).
  const dummyHash = loadOnce(() => bcrypt.hash('not-a-real-password', cost));

  return {
    hash: (password) => hashing(() => bcrypt.hash(password, cost)),
    verify(password, storedHash) {
      if (checking.pendingCount >= pools.maxQueuedChecks) {
        return Promise.reject(
          new ApiError('service_unavailable', 'Too many password checks are waiting; try again in a few seconds.', {
            headers: { 'Retry-After': '5' },
          }),
        );
      }
      return checking(async () => {
        if (storedHash) return bcrypt.compare(password, storedHash);
        await bcrypt.compare(password, await dummyHash());
        return false;
      });
    },
  };
}
