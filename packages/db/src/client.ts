import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { Pool, types } from 'pg';
import * as schema from './schema';

// numeric stays a string (exact decimals); int8 counts fit in a JS number for our volumes.
types.setTypeParser(types.builtins.INT8, (v) => Number(v));

/** The Drizzle database; `$client` is its pg Pool, for the few prepared statements written in SQL. */
export type Db = NodePgDatabase<typeof schema> & { $client: Pool };
/** A transaction handle has the same query surface as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  pool: Pool;
  close(): Promise<void>;
}

export function createDatabase(url: string, opts: { max?: number } = {}): Database {
  // Named statements (the registration path's, the auth lookup) are planned once per connection: their plans do not
  // depend on the values (keyed lookups), and planning them anew each time cost more than running them.
  const pool = new Pool({ connectionString: url, max: opts.max ?? 10, options: '-c plan_cache_mode=force_generic_plan' });
  // A checked-out client loses the pool's error listener: a server shutdown while it idles between queries (inside a
  // transaction, or holding the reconciler's advisory lock) would be an uncaught 'error' that ends the process. With
  // this listener its next query fails instead, and the pool discards it on release (it is no longer queryable).
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
