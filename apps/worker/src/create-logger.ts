import pino, { type Logger } from 'pino';

// Defence in depth: nothing logged by the worker should carry these, but if an object slips in, they are blanked.
const REDACT = [
  'password',
  '*.password',
  'certificatePassword',
  '*.certificatePassword',
  'certificateP12',
  '*.certificateP12',
  'keyPem',
  '*.keyPem',
  'masterKey',
  '*.masterKey',
  'config.platformCertificate',
];

export function createLogger(level: string, workerId: string): Logger {
  return pino({ level, base: { service: 'worker', workerId }, redact: { paths: REDACT, censor: '[redacted]' } });
}
