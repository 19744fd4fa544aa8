import { backOff } from 'exponential-backoff';
import type { Logger } from 'pino';

export interface WaitForOptions {
  logger: Logger;
  /** Aborted when the process is told to stop: the wait then ends with the last failure. */
  signal?: AbortSignal;
  /** The first wait after a failure; each next one doubles, with jitter, up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Tries `attempt` until it succeeds, waiting longer after each failure (exponential backoff with full jitter), and
 * logs every failure: a process started while PostgreSQL or Redis is down waits for it instead of exiting, and a
 * fleet started together does not retry in step.
 */
export function waitFor<T>(what: string, attempt: () => Promise<T>, opts: WaitForOptions): Promise<T> {
  return backOff(attempt, {
    numOfAttempts: Number.POSITIVE_INFINITY,
    startingDelay: opts.firstDelayMs ?? 500,
    maxDelay: opts.maxDelayMs ?? 10_000,
    timeMultiple: 2,
    jitter: 'full',
    retry: (err: unknown, nextAttempt: number) => {
      if (opts.signal?.aborted) return false;
      opts.logger.warn({ err, attempt: nextAttempt - 1 }, `waiting for ${what}: not there yet; trying again with backoff`);
      return true;
    },
  });
}
