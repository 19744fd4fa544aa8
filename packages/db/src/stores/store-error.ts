/** A constraint violation, translated at the store boundary so services never see driver error codes. */
export class StoreError extends Error {
  constructor(
    /** conflict = unique violation (23505); referenced = foreign-key violation (23503). */
    readonly kind: 'conflict' | 'referenced',
    readonly constraint: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(`${kind === 'conflict' ? 'unique' : 'foreign key'} constraint ${constraint ?? '(unknown)'} violated`, options);
    this.name = 'StoreError';
  }
}

interface PgError {
  code?: string;
  constraint?: string;
}

// Drizzle wraps the driver's error in DrizzleQueryError (cause); raw pool queries throw it directly.
function pgErrorOf(err: unknown): PgError | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as PgError).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return e as PgError;
  }
  return undefined;
}

export function translateDbError(err: unknown): unknown {
  const pg = pgErrorOf(err);
  if (pg?.code === '23505') return new StoreError('conflict', pg.constraint, { cause: err });
  if (pg?.code === '23503') return new StoreError('referenced', pg.constraint, { cause: err });
  return err;
}

/** Runs a write and rethrows constraint violations as StoreError. */
export async function translatingDbErrors<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw translateDbError(err);
  }
}
