import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { usageCounters } from '../schema';

export const usageStore = {
  /**
   * Counts one registration if the account is still under its quota, atomically: the guarded upsert
   * takes the counter's row lock, so concurrent registrations cannot push it past the quota.
   * Returns the new count, or undefined when the quota is already used up.
   */
  async claim(db: DbOrTx, accountId: string, period: string, quota: number): Promise<number | undefined> {
    if (quota < 1) return undefined;
    const result = await db.execute<{ registrations: number }>(sql`
      INSERT INTO ${usageCounters} (account_id, period, registrations) VALUES (${accountId}, ${period}, 1)
      ON CONFLICT (account_id, period) DO UPDATE SET registrations = ${usageCounters}.registrations + 1
      WHERE ${usageCounters}.registrations < ${quota}
      RETURNING registrations`);
    return result.rows[0]?.registrations;
  },

  async used(db: DbOrTx, accountId: string, period: string): Promise<number> {
    const [row] = await db
      .select({ registrations: usageCounters.registrations })
      .from(usageCounters)
      .where(and(eq(usageCounters.accountId, accountId), eq(usageCounters.period, period)));
    return row?.registrations ?? 0;
  },
};
