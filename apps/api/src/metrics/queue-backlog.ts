import type { Job, Queue } from 'bullmq';
import type { RedisConnection } from '@vf/queue';

/** BullMQ encodes a delayed job's due time (ms) in the high bits of its score in the `delayed` sorted set. */
const DELAYED_SCORE_FACTOR = 0x1000;

export interface QueueBacklog {
  /** Jobs by BullMQ state. */
  counts: Record<'waiting' | 'prioritized' | 'active' | 'delayed' | 'failed', number>;
  /** Jobs a worker could take now: waiting, prioritized, and delayed ones already due (promoted only when a worker fetches). */
  depth: number;
  /** Seconds the longest-ready job has waited for a worker; 0 when none is ready. */
  oldestWaitingAgeSeconds: number;
}

/**
 * When a waiting job became ready: when it was added (plus its initial delay), or when a sleep it was put to ended
 * (`readyAt` in its data, written by jobs that put themselves to sleep, since BullMQ forgets a delay once promoted).
 */
function readySince(job: Job): number {
  const readyAt = (job.data as { readyAt?: unknown } | undefined)?.readyAt;
  return Math.max(job.timestamp + (job.opts.delay ?? 0), typeof readyAt === 'number' ? readyAt : 0);
}

/** `redis`: a connection to the queues' Redis, for the one reading BullMQ's API has no call for (due delayed jobs). */
export async function queueBacklog(queue: Queue, redis: RedisConnection, now: number): Promise<QueueBacklog> {
  const dueScore = (now + 1) * DELAYED_SCORE_FACTOR - 1;
  const [counts, dueDelayed, firstDelayed, [oldestWaiting]] = await Promise.all([
    queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed'),
    redis.zcount(queue.keys.delayed, 0, dueScore),
    redis.zrange(queue.keys.delayed, '0', '0', 'WITHSCORES'),
    queue.getJobs(['waiting'], 0, 0, true),
  ]);
  const readyTimes: number[] = [];
  if (oldestWaiting) readyTimes.push(readySince(oldestWaiting));
  if (firstDelayed.length === 2) {
    const due = Math.floor(Number(firstDelayed[1]) / DELAYED_SCORE_FACTOR);
    if (due <= now) readyTimes.push(due);
  }
  const oldest = readyTimes.length > 0 ? Math.min(...readyTimes) : now;
  return {
    counts: {
      waiting: counts.waiting ?? 0,
      prioritized: counts.prioritized ?? 0,
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      failed: counts.failed ?? 0,
    },
    depth: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + dueDelayed,
    oldestWaitingAgeSeconds: Math.max(0, now - oldest) / 1000,
  };
}
