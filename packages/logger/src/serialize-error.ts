/** What is safe to log of a PostgreSQL error: which rule failed, never the values involved. */
interface DatabaseErrorSummary {
  type: 'DatabaseError';
  code: string;
  constraint?: string;
  table?: string;
  column?: string;
}

export interface SerializedError {
  type: string;
  message?: string;
  stack?: string;
  code?: string | number;
  cause?: SerializedError | DatabaseErrorSummary;
  [key: string]: unknown;
}

const MAX_DEPTH = 5;

// pg's DatabaseError: a five-character SQLSTATE plus a severity. Its message and detail can quote the
// offending value ("Key (email)=(…) already exists", "invalid input syntax for type uuid: \"…\"").
function isDatabaseError(err: Record<string, unknown>): boolean {
  return typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code) && typeof err.severity === 'string';
}

// Drizzle wraps a failed query in an error whose message and stack list every query parameter.
function isQueryWrapper(err: Record<string, unknown>): boolean {
  return 'query' in err && 'params' in err;
}

function summarise(err: Record<string, unknown>): DatabaseErrorSummary {
  const summary: DatabaseErrorSummary = { type: 'DatabaseError', code: String(err.code) };
  for (const field of ['constraint', 'table', 'column'] as const) if (typeof err[field] === 'string') summary[field] = err[field] as string;
  return summary;
}

/**
 * Serializes an error for a log line with its chain of causes, except that database errors are reduced to their
 * SQLSTATE and constraint: neither a query's parameters nor a value quoted by PostgreSQL ever reaches a log.
 */
export function serializeError(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error) && (typeof value !== 'object' || value === null)) return value;
  const err = value as unknown as Record<string, unknown>;
  if (isDatabaseError(err)) return summarise(err);
  if (isQueryWrapper(err)) {
    const cause = err.cause;
    return cause && depth < MAX_DEPTH ? serializeError(cause, depth + 1) : { type: 'DatabaseError', code: 'unknown' };
  }
  const out: SerializedError = { type: (value as Error).constructor?.name ?? 'Error' };
  if (typeof err.message === 'string') out.message = err.message;
  if (typeof err.stack === 'string') out.stack = err.stack;
  if (typeof err.code === 'string' || typeof err.code === 'number') out.code = err.code;
  if (err.cause !== undefined && depth < MAX_DEPTH) out.cause = serializeError(err.cause, depth + 1) as SerializedError;
  return out;
}
