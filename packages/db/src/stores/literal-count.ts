import { sql } from 'drizzle-orm';

/**
 * A row count written into the statement rather than passed as a parameter. The pool plans statements generically
 * (plan_cache_mode, client.ts): with `LIMIT $n` a generic plan guesses a tenth of the rows are wanted and sorts an
 * account's every invoice (seconds at a million); with `LIMIT 51` it reads the first 51 from the sort's index.
 */
export function literalCount(count: number): number {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`not a row count: ${count}`);
  // Drizzle writes an SQL limit or offset as it is, a number as a parameter.
  return sql.raw(String(count)) as unknown as number;
}
