import { sql, type SQL } from 'drizzle-orm';

/**
 * A text written into the statement as a literal rather than passed as a parameter. The pool plans statements
 * generically (plan_cache_mode, client.ts), and a generic plan knows nothing of a parameter: a LIKE prefix then
 * ranges over no index, and a pattern's selectivity is a guess (docs/scaling.md). An escape string (E'…'): its
 * backslashes and quotes are escaped whatever `standard_conforming_strings` says.
 */
export function literalText(text: string): SQL {
  if (text.includes('\0')) throw new RangeError('a text literal cannot hold a NUL character');
  return sql.raw(`E'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`);
}
