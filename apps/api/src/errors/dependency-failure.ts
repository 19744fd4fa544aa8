import { ApiError } from './api-error';

/** How long a client should wait before retrying while PostgreSQL or Redis is away: a restart takes seconds. */
export const RETRY_AFTER_SECONDS = 5;

// Socket-level failures, whichever client saw them.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
// SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown, restart, cannot connect now),
// and 25006 (read_only_sql_transaction): a write reached a server that a failover has just turned into a standby.
const DATABASE_UNAVAILABLE = /^(08[0-9A-Z]{3}|57P0[1-3]|25006)$/;
// Messages pg and ioredis use for a connection that is gone or not allowed to queue.
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Connection is closed/i,
  /enableOfflineQueue options is false/i,
  /Reached the max retries per request limit/i,
  /Stream isn't writeable/i,
];

function causes(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let at = err, depth = 0; at && depth < 6; at = (at as { cause?: unknown }).cause, depth++) {
    chain.push(at);
    if (at instanceof AggregateError) chain.push(...at.errors);
  }
  return chain;
}

/** True when the error (or one of its causes) says PostgreSQL or Redis is unreachable, not that the request was wrong. */
export function isDependencyFailure(err: unknown): boolean {
  return causes(err).some((e) => {
    const { code, message } = (e ?? {}) as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || DATABASE_UNAVAILABLE.test(code))) return true;
    return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(message));
  });
}

export function serviceUnavailable(cause?: unknown): ApiError {
  return new ApiError('service_unavailable', 'A service this request needs is restarting or unreachable. Try again shortly.', {
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    cause,
  });
}
