import type { Logger } from 'pino';
import { withTimeout } from '@vf/lifecycle';

/** How long a forced close (Redis away) waits for BullMQ before the process goes on closing. */
const FORCED_CLOSE_MS = 2_000;

/**
 * Closes the BullMQ workers (`close(force)` each). Even forced, BullMQ's close waits for what its loop still has in
 * hand, such as a failed job being moved in a Redis that is away: none of that can finish, and PostgreSQL holds what
 * matters, so a forced close is bounded.
 */
export async function closeQueueWorkers(closers: ((force: boolean) => Promise<void>)[], force: boolean, logger: Logger): Promise<void> {
  if (!force) {
    for (const close of closers) await close(false);
    return;
  }
  await withTimeout(Promise.all(closers.map((close) => close(true))), FORCED_CLOSE_MS, 'closing the queue workers').catch((err: unknown) =>
    logger.warn({ err }, 'queue workers left unclosed: Redis is away'),
  );
}
