export { createLogger, REDACT_PATHS, type LoggerOptions } from './create-logger';
export { serializeError } from './serialize-error';
