import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';

/** What the database answers outside any table: that it is there, and advisory locks. */
export const databaseStore = {
  /** Resolves once PostgreSQL has answered a trivial query; rejects when it cannot. */
  async ping(db: DbOrTx): Promise<void> {
    await db.execute(sql`SELECT 1`);
  },

  /**
   * Takes the transaction-scoped advisory lock `key` when no other transaction holds it, without waiting: true when
   * taken (held until `tx` ends), false when another holds it.
   */
  async tryTransactionLock(tx: DbOrTx, key: number): Promise<boolean> {
    const { rows } = await tx.execute<{ locked: boolean }>(sql`SELECT pg_try_advisory_xact_lock(${key}) AS locked`);
    return rows[0].locked;
  },
};
