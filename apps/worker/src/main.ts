import { loadConfig } from '@vf/config';
import { stopOnSignals } from '@vf/lifecycle';
import { createLogger as createServiceLogger, routeProcessOutput } from '@vf/logger';
import { createLogger } from './create-logger';
import { createWorkerRuntime } from './create-worker-runtime';
import { lowerPriority } from './lower-priority';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, config.worker.id);
  routeProcessOutput(logger);
  // Registrations first where the worker shares cores with the API (config.worker.nice).
  lowerPriority(config.worker.nice);
  const runtime = createWorkerRuntime({ config, logger });
  let stopping = false;
  stopOnSignals({
    logger,
    timeoutMs: config.shutdownTimeoutMs,
    // Takes no new job and lets the message in hand finish; past the bound its lease simply expires.
    stop: () => {
      stopping = true;
      return runtime.close();
    },
  });
  try {
    await runtime.start();
  } catch (err) {
    // Told to stop while waiting for PostgreSQL or Redis: the signal handler is closing everything.
    if (stopping) return;
    throw err;
  }
}

main().catch((err) => {
  // The configured logger may not exist yet (bad configuration): the shared one still redacts.
  createServiceLogger({ service: 'worker' }).fatal({ err }, 'worker failed to start');
  process.exit(1);
});
