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
}

/** The logger every process builds: same redaction, same error serializer, JSON lines on stdout. */
export function createLogger({ service, level = 'info', base, destination }: LoggerOptions): Logger {
  const options = {
    level,
    base: { service, ...base },
    redact: { paths: REDACT_PATHS, censor: CENSOR },
    // Every logged object, before it is serialized: one list of secret keys (redact-secrets.ts) for every process.
    formatters: { log: (object: Record<string, unknown>) => redactSecrets(object) },
    serializers: { err: serializeError, error: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}
