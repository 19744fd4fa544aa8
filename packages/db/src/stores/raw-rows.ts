import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client';

const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * The rows of a statement Drizzle's builder cannot express (a data-modifying CTE, say), typed here at the boundary
 * with the field names Drizzle's own rows have: `send_attempts` comes back as `sendAttempts`. The row type is the
 * caller's word, not the schema's: raw rows skip the column decoders, so timestamps and dates come back as strings.
 */
export async function rawRows<T extends object>(db: DbOrTx, query: SQL): Promise<T[]> {
  const { rows } = await db.execute<Record<string, unknown>>(query);
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([name, value]) => [camelCase(name), value])) as T);
}
