import type { Logger } from 'pino';

export interface StopOnSignalsOptions {
  logger: Logger;
  /** SHUTDOWN_TIMEOUT_MS: past this the process exits without waiting any longer. */
  timeoutMs: number;
  /** The graceful part: stop taking work, finish what is in hand, close connections. */
  stop: (signal: NodeJS.Signals) => Promise<void>;
}

/**
 * SIGTERM and SIGINT stop the process gracefully, within a bound whatever is down: a close that waits on a
 * PostgreSQL or Redis that does not answer cannot keep it running past `timeoutMs` (an orchestrator would kill it
 * anyway, later and without a word). A second signal exits at once.
 */
export function stopOnSignals({ logger, timeoutMs, stop }: StopOnSignalsOptions): void {
  let stopping = false;
  const exit = (code: number) => {
    logger.flush();
    process.exit(code);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      exit(1);
    }
    stopping = true;
    logger.info({ signal, timeoutMs }, 'shutting down');
    setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown did not finish in time (SHUTDOWN_TIMEOUT_MS): exiting without waiting any longer');
      exit(1);
    }, timeoutMs);
    stop(signal).then(
      () => exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
