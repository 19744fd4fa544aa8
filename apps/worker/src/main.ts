import { loadConfig } from '@vf/config';
import { createLogger as createServiceLogger } from '@vf/logger';
import { createLogger } from './create-logger';
import { createWorkerRuntime } from './create-worker-runtime';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, config.worker.id);
  const runtime = createWorkerRuntime({ config, logger });

  let closing: Promise<void> | undefined;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      logger.warn({ signal }, 'second signal: exiting without waiting; unfinished leases will expire');
      process.exit(1);
    }
    logger.info({ signal }, 'shutting down: finishing the message in hand');
    closing = runtime.close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  await runtime.start();
}

main().catch((err) => {
  // The configured logger may not exist yet (bad configuration): the shared one still redacts.
  createServiceLogger({ service: 'worker' }).fatal({ err }, 'worker failed to start');
  process.exit(1);
});
