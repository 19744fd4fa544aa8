import type { Logger } from 'pino';
import { certificateSigner, writeDueSummaries } from '@vf/chain';
import type { AppConfig } from '@vf/config';
import type { Db } from '@vf/db';
import { withTimeout } from '@vf/lifecycle';

/** How often a worker looks for six-hour summaries due: well inside a period, so one is never late by much. */
export const SUMMARY_SWEEP_MS = 60_000;

/** How long a stopping worker gives its last sweep: a database that stopped answering must not hold the stop. */
const LAST_SWEEP_MS = 10_000;

export interface SummaryWriter {
  /** Sweeps now (catching up an outage) and every SUMMARY_SWEEP_MS until stop(). */
  start(): void;
  stop(): void;
  /** Once stopped: a summary of every chain up to now, before the worker goes (Orden HAC/1177/2024 art. 9.2). */
  beforeShutdown(): Promise<void>;
}

/**
 * The NO VERI*FACTU six-hour summaries, written by every worker of the fleet: on start, every minute, and before the
 * worker stops, signed with the certificate that signs the taxpayer's records. However many workers sweep at once,
 * each period of each chain of events is summarised once: PostgreSQL's unique index on a summary's start decides
 * (docs/decisions/0045-six-hour-summaries-once-by-a-unique-index.md). A sweep never rejects: it logs what failed.
 */
export function summaryWriter(deps: {
  db: Db;
  config: Pick<AppConfig, 'masterKey' | 'platformCertificate'>;
  logger: Logger;
}): SummaryWriter {
  const clock = () => new Date();
  const signer = certificateSigner({
    db: deps.db,
    masterKey: deps.config.masterKey,
    platformCertificate: deps.config.platformCertificate,
    clock,
  });
  let sweeping: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let started = false;

  async function run(shutdown: boolean): Promise<void> {
    try {
      const { written, unsigned } = await writeDueSummaries(deps.db, { signer, now: clock(), shutdown });
      if (written > 0) deps.logger.info({ written, shutdown }, 'six-hour summaries written');
      if (unsigned.length > 0)
        deps.logger.warn({ chains: unsigned }, 'summaries not written: no certificate can sign them; retried next sweep');
    } catch (err) {
      deps.logger.warn({ err }, 'summary sweep failed; retried next sweep');
    }
  }
  function sweep(shutdown: boolean): Promise<void> {
    sweeping = (sweeping ?? Promise.resolve()).then(() => run(shutdown)).finally(() => (sweeping = undefined));
    return sweeping;
  }

  return {
    start() {
      started = true;
      void sweep(false);
      timer = setInterval(() => {
        if (!sweeping) void sweep(false);
      }, SUMMARY_SWEEP_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
    async beforeShutdown() {
      // A sweep still running finishes first; the last one writes up to the moment it runs.
      if (!started) return;
      await withTimeout(sweep(true), LAST_SWEEP_MS, 'the last summary sweep').catch((err: unknown) =>
        deps.logger.warn({ err }, 'summaries before shutdown not written; the next worker to start catches them up'),
      );
    },
  };
}
