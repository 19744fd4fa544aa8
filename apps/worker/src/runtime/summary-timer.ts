import type { Logger } from 'pino';
import { certificateSigner, PERIODIC_CHECK_MS, runDuePeriodicChecks, writeDueSummaries } from '@vf/chain';
import type { AppConfig } from '@vf/config';
import { workerPresenceStore, type Db } from '@vf/db';
import { withTimeout } from '@vf/lifecycle';

/** How often a worker looks for six-hour summaries due: well inside a period, so one is never late by much. */
const SUMMARY_SWEEP_MS = 60_000;

/** A worker not seen for this many sweeps is gone (killed): it no longer keeps the system running. */
const SWEEPS_BEFORE_GONE = 3;

/** How long a stopping worker gives its last sweep: a database that stopped answering must not hold the stop. */
const LAST_SWEEP_MS = 10_000;

export interface SummaryWriter {
  /** Sweeps now (catching up an outage) and every minute (a sixth of a test's shorter period) until stop(). */
  start(): void;
  stop(): void;
  /**
   * Once stopped: when no other worker runs, a summary of every chain up to now, before the system shuts down (Orden
   * HAC/1177/2024 art. 9.2). A worker stopping while others run leaves the period to them: a rolling restart writes
   * no summary of its own.
   */
  beforeShutdown(): Promise<void>;
}

/**
 * The NO VERI*FACTU six-hour summaries, written by every worker of the fleet: on start, every minute, and before the
 * last worker stops, signed with the certificate that signs the taxpayer's records. However many workers sweep at
 * once, each period of each chain of events is summarised once: PostgreSQL's unique index on a summary's start decides
 * (docs/decisions/0045-six-hour-summaries-once-by-a-unique-index.md). With PERIODIC_CHECK set, the same sweep runs the
 * periodic full checks due, each once per period (decision 0063). A sweep never rejects: it logs what failed.
 */
export function summaryWriter(deps: {
  db: Db;
  config: Pick<AppConfig, 'masterKey' | 'platformCertificate' | 'worker'>;
  logger: Logger;
}): SummaryWriter {
  const clock = () => new Date();
  const signer = certificateSigner({
    db: deps.db,
    masterKey: deps.config.masterKey,
    platformCertificate: deps.config.platformCertificate,
    clock,
  });
  const workerId = deps.config.worker.id;
  const periodMs = deps.config.worker.summaryPeriodSeconds * 1000;
  const sweepMs = Math.min(SUMMARY_SWEEP_MS, Math.floor(periodMs / 6));
  let sweeping: Promise<void> | undefined;
  let checking: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let started = false;

  async function run(shutdown: boolean): Promise<void> {
    try {
      if (!shutdown) await workerPresenceStore.see(deps.db, workerId);
      const { written, unsigned } = await writeDueSummaries(deps.db, { signer, now: clock(), shutdown, periodMs });
      if (written > 0) deps.logger.info({ written, shutdown }, 'six-hour summaries written');
      if (unsigned.length > 0)
        deps.logger.warn({ chains: unsigned }, 'summaries not written: no certificate can sign them; retried next sweep');
    } catch (err) {
      deps.logger.warn({ err }, 'summary sweep failed; retried next sweep');
    }
    // Started by the sweep, not awaited by it: a whole chain's check can take minutes, during which this worker must
    // go on saying it runs (or another, stopping, would find itself the last) and writing its summaries on time.
    if (!shutdown && !checking) checking = periodicChecks().finally(() => (checking = undefined));
  }
  /** The optional periodic full checks, one round at a time: a stopping worker leaves them to the sweeps of the others (or of the next start). */
  async function periodicChecks(): Promise<void> {
    const every = deps.config.worker.periodicCheck;
    if (every === 'off') return;
    try {
      const checked = await runDuePeriodicChecks(deps.db, { signer, now: clock(), periodMs: PERIODIC_CHECK_MS[every] });
      if (checked > 0) deps.logger.info({ checked }, 'periodic full checks run');
    } catch (err) {
      deps.logger.warn({ err }, 'a periodic full check failed; retried next sweep');
    }
  }
  function sweep(shutdown: boolean): Promise<void> {
    sweeping = (sweeping ?? Promise.resolve()).then(() => run(shutdown)).finally(() => (sweeping = undefined));
    return sweeping;
  }
  async function lastSweep(): Promise<void> {
    await sweeping;
    if (!(await workerPresenceStore.leave(deps.db, workerId, SWEEPS_BEFORE_GONE * sweepMs))) {
      deps.logger.info('other workers run: the summaries stay theirs to write');
      return;
    }
    await sweep(true);
  }

  return {
    start() {
      started = true;
      void sweep(false);
      timer = setInterval(() => {
        if (!sweeping) void sweep(false);
      }, sweepMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
    async beforeShutdown() {
      // A sweep still running finishes first; the last one writes up to the moment it runs.
      if (!started) return;
      await withTimeout(lastSweep(), LAST_SWEEP_MS, 'the last summary sweep').catch((err: unknown) =>
        deps.logger.warn({ err }, 'summaries before shutdown not written; the next worker to start catches them up'),
      );
    },
  };
}
