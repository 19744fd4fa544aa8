export { createLogger, LOG_FLUSH_INTERVAL_MS, REDACT_PATHS, type LoggerOptions } from './create-logger';
export { logRepeatsSparingly, type RepeatLimitedLog } from './log-repeats-sparingly';
export { routeProcessOutput } from './route-process-output';
export { serializeError } from './serialize-error';
