import { setTimeout as sleep } from 'node:timers/promises';
import { translateDbError } from '@vf/db';

// PostgreSQL's "deadlock detected" and "lock not available" (a reclaim that met a chain mid-append): try again.
const RETRYABLE_LOCK_ERRORS = new Set(['40P01', '55P03']);

/** Whether a transaction that locks chain rows failed only on a lock, and waits a moment before its next try. */
export async function waitedOutLockError(err: unknown): Promise<boolean> {
  const code = (translateDbError(err) as { cause?: { code?: string }; code?: string }).code;
  if (!code || !RETRYABLE_LOCK_ERRORS.has(code)) return false;
  await sleep(5 + Math.random() * 20);
  return true;
}
