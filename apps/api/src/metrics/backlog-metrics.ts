import { Queue } from 'bullmq';
import type { RedisConnection } from '@vf/queue';
import type { Logger } from 'pino';
import { Gauge, Registry } from 'prom-client';
import { AUTHORITY_STATUSES } from '@vf/core';
import { invoiceStatisticsStore, type Db } from '@vf/db';
import type { Queues } from '@vf/queue';
import { withTimeout } from '@vf/lifecycle';
import { queueBacklog } from './queue-backlog';

export interface BacklogMetrics {
  registry: Registry;
  /** Reads the database and the queues now; a source that fails or is slow is reported down, not stale. */
  refresh(): Promise<void>;
}

export interface BacklogMetricsDeps {
  db: Db;
  queues: Queues;
  /** The queues' Redis. */
  redis: RedisConnection;
  logger: Logger;
  /** A scrape answers within this even when a source hangs (Prometheus' own scrape timeout is 10 s by default). */
  timeoutMs?: number;
  now?: () => number;
}

/**
 * The whole system's backlog, computed at scrape time from PostgreSQL and Redis, so one scrape of any API process
 * shows what every worker has left to do (the workers' own registries only hold what each process did).
 */
export function createBacklogMetrics(deps: BacklogMetricsDeps): BacklogMetrics {
  const now = deps.now ?? Date.now;
  const timeoutMs = deps.timeoutMs ?? 5_000;
  const registry = new Registry();
  const records = new Gauge({
    name: 'vf_records',
    help: 'Invoice records by authority_status (PostgreSQL, at scrape time).',
    labelNames: ['authority_status'] as const,
    registers: [registry],
  });
  const depth = new Gauge({
    name: 'vf_queue_depth',
    help: 'Jobs a worker could take now (waiting, prioritized, or delayed and already due), per queue.',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  const oldestAge = new Gauge({
    name: 'vf_queue_oldest_waiting_age_seconds',
    help: 'How long the job ready the longest has been waiting for a worker, per queue; 0 when none is ready.',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  const jobs = new Gauge({
    name: 'vf_queue_jobs',
    help: 'Jobs per queue and BullMQ state (waiting, prioritized, active, delayed, failed).',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
  });
  const sourceUp = new Gauge({
    name: 'vf_backlog_source_up',
    help: 'Whether the last scrape could read a backlog source (database, queues): 1 yes, 0 no.',
    labelNames: ['source'] as const,
    registers: [registry],
  });

  const queueList = () => Object.values(deps.queues).filter((q): q is Queue => q instanceof Queue);

  async function refreshRecords(): Promise<void> {
    const rows = await withTimeout(invoiceStatisticsStore.recordsByStatus(deps.db), timeoutMs, 'records by status');
    records.reset();
    // Every status is always present, so a rate or an alert on one never sees the series vanish at zero.
    for (const status of AUTHORITY_STATUSES) records.set({ authority_status: status }, 0);
    for (const row of rows) records.set({ authority_status: row.status }, Number(row.n));
  }

  async function refreshQueues(): Promise<void> {
    const at = now();
    const backlogs = await withTimeout(
      Promise.all(queueList().map(async (q) => [q.name, await queueBacklog(q, deps.redis, at)] as const)),
      timeoutMs,
      'queue backlog',
    );
    for (const [queue, b] of backlogs) {
      depth.set({ queue }, b.depth);
      oldestAge.set({ queue }, b.oldestWaitingAgeSeconds);
      for (const [state, n] of Object.entries(b.counts)) jobs.set({ queue, state }, n);
    }
  }

  async function attempt(source: 'database' | 'queues', work: () => Promise<void>, clear: Gauge[]): Promise<void> {
    try {
      await work();
      sourceUp.set({ source }, 1);
    } catch (err) {
      // A number from a past scrape would look current: the series disappear and the source reads as down.
      for (const g of clear) g.reset();
      sourceUp.set({ source }, 0);
      deps.logger.warn({ err, source }, 'metrics: backlog source unavailable');
    }
  }

  return {
    registry,
    async refresh() {
      await Promise.all([attempt('database', refreshRecords, [records]), attempt('queues', refreshQueues, [depth, oldestAge, jobs])]);
    },
  };
}
