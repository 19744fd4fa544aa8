import { drizzle } from 'drizzle-orm/node-postgres';
import type { PoolClient } from 'pg';
import type { Db, DbOrTx } from '../client';
import * as schema from '../schema';
import type { Queryable } from './queryable';

/**
 * Runs `work` in a transaction of its own on one connection of the pool, for the statements written in SQL (the
 * chain appends'): committed when `work` resolves, rolled back when it throws. `tx` runs the stores' Drizzle queries
 * on that same connection and transaction (a read under the transaction's locks needs no second connection).
 */
export async function inPoolTransaction<T>(db: Db, work: (client: Queryable, tx: DbOrTx) => Promise<T>): Promise<T> {
  const client = await db.$client.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client, onClient(client));
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (err) {
    // A client that cannot roll back is broken: destroyed rather than returned to the pool.
    await client.query('ROLLBACK').then(
      () => client.release(),
      (rollbackErr: Error) => client.release(rollbackErr),
    );
    throw err;
  }
}

function onClient(client: PoolClient): DbOrTx {
  // Typed as the database: the same query surface; `transaction` is never called on it (the caller holds one).
  return drizzle(client, { schema }) as unknown as DbOrTx;
}
