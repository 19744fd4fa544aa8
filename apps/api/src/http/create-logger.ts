import pino, { type DestinationStream, type Logger } from 'pino';

/** Secrets that must never reach a log line, wherever they sit in a logged object. */
const SECRET_KEYS = ['password', 'certificate_password', 'certificate_p12_base64', 'api_key', 'apiKey', 'authorization', 'cookie'];
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
