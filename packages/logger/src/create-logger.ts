import pino, { type DestinationStream, type Logger } from 'pino';
import { serializeError } from './serialize-error';

// One list for every process. Any object logged with one of these keys, at the top or up to three levels down,
// has the value blanked: credentials, key material, certificates, and the parameters of database queries.
const SECRET_KEYS = [
  'password',
  'passwordHash',
  'password_hash',
  'certificate_password',
  'certificatePassword',
  'certificate_p12_base64',
  'certificateP12',
  'certificate_p12',
  'p12',
  'pfx',
  'keyPem',
  'privateKey',
  'key',
  'masterKey',
  'master_key',
  'api_key',
  'apiKey',
  'apiKeyDigest',
  'api_key_digest',
  'token',
  'csrfToken',
  'authorization',
  'cookie',
  'params',
  'parameters',
];

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'config.platformCertificate',
  'config.admin',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `*.*.*.${key}`]),
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
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError, error: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}
