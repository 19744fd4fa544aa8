import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { periodicChecks } from '../schema';

/** Who runs a chain's periodic full check of a period: the first worker to claim it, by the table's primary key. */
export const periodicCheckStore = {
  /** True for the one worker whose claim made the row: it runs the check; any other finds the period taken. */
  async claim(db: DbOrTx, chainId: string, periodStart: Date): Promise<boolean> {
    const rows = await db
      .insert(periodicChecks)
      .values({ chainId, periodStart })
      .onConflictDoNothing()
      .returning({ chainId: periodicChecks.chainId });
    return rows.length > 0;
  },

  /** A check that could not run gives its period back: the next sweep claims it again. */
  async release(db: DbOrTx, chainId: string, periodStart: Date): Promise<void> {
    await db.delete(periodicChecks).where(and(eq(periodicChecks.chainId, chainId), eq(periodicChecks.periodStart, periodStart)));
  },
};
