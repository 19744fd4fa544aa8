import type { Logger } from 'pino';
import { ensureReconcileSchedule } from '../jobs/reconcile-processor';

type ScheduleDeps = Parameters<typeof ensureReconcileSchedule>[0];

/**
 * Every interval, re-creates the periodic reconciliation's schedule if Redis lost it (flushed, restarted empty).
 * While Redis is down a check waits for it; ticks meanwhile are skipped, not stacked. Returns the stop.
 */
export function checkReconcileSchedule(deps: ScheduleDeps & { logger: Logger }): () => void {
  let checking = false;
  let stopped = false;
  async function check(): Promise<void> {
    if (checking || stopped) return;
    checking = true;
    try {
      if ((await ensureReconcileSchedule(deps)) === 'recreated')
        deps.logger.warn('reconcile schedule was missing (Redis flushed or restarted empty): re-created');
    } catch (err) {
      deps.logger.warn({ err }, 'reconcile schedule check failed; retrying next interval');
    } finally {
      checking = false;
    }
  }
  const timer = setInterval(() => void check(), deps.everyMs);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
