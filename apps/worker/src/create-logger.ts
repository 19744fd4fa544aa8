import type { Logger } from 'pino';
import { createLogger as createServiceLogger } from '@vf/logger';

/** The worker's logger: the shared configuration (one redaction list for every process), stamped with its id. */
export function createLogger(level: string, workerId: string): Logger {
  return createServiceLogger({ service: 'worker', level, base: { workerId } });
}
