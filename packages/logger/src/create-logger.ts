import pino, { type DestinationStream, type Logger } from 'pino';
import { CENSOR, redactSecrets } from './redact-secrets';
import { serializeError } from './serialize-error';

// Exact paths the key-name redaction below cannot see: headers and settings logged by a serializer or under a
// name that is not itself secret.
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'config.platformCertificate',
  'config.admin',
];

export interface LoggerOptions {
  /** Stamped on every line: api, worker, authority-sim, or a script's name. */
  service: string;
  level?: string;
  /** Extra fields on every line (e.g. the worker's id). */
  base?: Record<string, unknown>;
  /** Defaults to stdout; tests pass a stream that keeps the lines. */
  destination?: DestinationStream;
  /**
   * Lines to stdout gathered into writes of up to 4 KB (whole lines, at most PIPE_BUF so that processes sharing a pipe
   * never interleave within a line), each written within LOG_FLUSH_INTERVAL_MS, and all of them on exit (a crash
   * included). For a process that logs a line per request: one write per line was the API's largest single cost
   * after its PostgreSQL round trips when one client registers one invoice at a time (docs/scaling.md).
   */
  buffered?: boolean;
}

/** The longest a buffered line waits before it is written. */
export const LOG_FLUSH_INTERVAL_MS = 200;

function bufferedStdout(): DestinationStream {
  // Gathered lines are written synchronously: an asynchronous write still in flight when the process exits or crashes
  // would land after the lines the exit writes, out of order, or be lost with the process.
  const stream = pino.destination({ dest: 1, sync: true, minLength: 2048, maxWrite: 4096, periodicFlush: LOG_FLUSH_INTERVAL_MS });
  process.on('exit', () => stream.flushSync());
  return stream;
}

/** The logger every process builds: same redaction, same error serializer, JSON lines on stdout. */
export function createLogger({ service, level = 'info', base, destination, buffered }: LoggerOptions): Logger {
  const options = {
    level,
    base: { service, ...base },
    redact: { paths: REDACT_PATHS, censor: CENSOR },
    // Every logged object, before it is serialized: one list of secret keys (redact-secrets.ts) for every process.
    formatters: { log: (object: Record<string, unknown>) => redactSecrets(object) },
    serializers: { err: serializeError, error: serializeError },
  };
  const out = destination ?? (buffered ? bufferedStdout() : undefined);
  return out ? pino(options, out) : pino(options);
}
