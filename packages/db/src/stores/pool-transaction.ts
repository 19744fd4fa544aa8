import type { Db } from '../client';
import type { Queryable } from './registration-append-store';

/**
 * Runs `work` in a transaction of its own on one connection of the pool, for the statements written in SQL (the
 * group commit's): committed when `work` resolves, rolled back when it throws.
 */
export async function inPoolTransaction<T>(db: Db, work: (client: Queryable) => Promise<T>): Promise<T> {
  const client = await db.$client.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
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
