import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { Client, Pool, types, type PoolConfig } from 'pg';
import { parseDatabaseUrl, type DatabasePoolMode } from '@vf/config';
import { followingPrimary } from './following-primary';
import { PrimaryHost } from './primary-host';
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

/**
 * A client that sends every statement unnamed. Behind a transaction-pooling proxy (PgBouncer, pool_mode=transaction)
 * each transaction may run on a different server connection, where a statement prepared under a name by an earlier
 * one does not exist; unnamed, each statement is parsed where it runs. Statements stay parameterised.
 */
class UnnamedStatementClient extends Client {
  override query: Client['query'] = ((config: unknown, ...rest: unknown[]) => {
    const named = typeof config === 'object' && config !== null && 'name' in config && !('submit' in config);
    const unnamed = named ? { ...(config as object), name: undefined } : config;
    return (super.query as (...args: unknown[]) => unknown)(unnamed, ...rest);
  }) as Client['query'];
}

export function createDatabase(url: string, opts: { max?: number; poolMode?: DatabasePoolMode } = {}): Database {
  const primary = PrimaryHost.fromUrl(url);
  // With a choice of hosts, each connection is pointed at the chosen one; the first host's URL gives the rest.
  const config: PoolConfig = { connectionString: primary.choosing ? parseDatabaseUrl(url).hosts[0].url : url, max: opts.max ?? 10 };
  const transactionPooling = opts.poolMode === 'transaction';
  const base = transactionPooling ? UnnamedStatementClient : Client;
  if (primary.choosing) config.Client = followingPrimary(base, primary);
  else if (transactionPooling) config.Client = base;
  // Named statements (the registration path's, the auth lookup) are planned once per connection: their plans do not
  // depend on the values (keyed lookups), and planning them anew each time cost more than running them. A
  // transaction-pooling proxy refuses startup options (and would not keep them for the next transaction).
  if (!transactionPooling) config.options = '-c plan_cache_mode=force_generic_plan';
  const pool = new Pool(config);
  // A checked-out client loses the pool's error listener: a server shutdown while it idles between queries (inside a
  // transaction) would be an uncaught 'error' that ends the process. With this listener its next query fails
  // instead, and the pool discards it on release (it is no longer queryable).
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
