import type { DestinationStream, Logger } from 'pino';
import { createLogger as createServiceLogger } from '@vf/logger';

/**
 * The API's logger: the shared configuration (one redaction list for every process), stamped `service: api`, its lines
 * to stdout buffered (a line per request).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return createServiceLogger({ service: 'api', level, destination, buffered: true });
}
