import { format } from 'node:util';
import type { Logger } from 'pino';

const CONSOLE_LEVELS = { error: 'error', warn: 'warn', info: 'info', log: 'info', debug: 'debug', trace: 'trace' } as const;

/**
 * Makes every line the process writes one of `logger`'s JSON lines: what libraries print with console.* (BullMQ
 * prints an error no listener took that way), Node's process warnings (deprecations), and the error of a crash,
 * which Node would print as a raw multi-line stack before exiting with 1. A service process calls it once, first.
 */
export function routeProcessOutput(logger: Logger): void {
  for (const [method, level] of Object.entries(CONSOLE_LEVELS)) {
    console[method as keyof typeof CONSOLE_LEVELS] = (...args: unknown[]) => {
      const err = args.find((a) => a instanceof Error);
      const rest = args.filter((a) => a !== err);
      logger[level]({ source: 'console', ...(err ? { err } : {}) }, rest.length ? format(...rest) : ((err as Error)?.message ?? ''));
    };
  }
  // Node's own printer of warnings is the one listener a process starts with.
  process.removeAllListeners('warning');
  process.on('warning', (warning) => logger.warn({ err: warning }, warning.message));
  process.on('uncaughtException', (err, origin) => {
    logger.fatal({ err, origin }, 'process crashed');
    logger.flush();
    process.exit(1);
  });
}
