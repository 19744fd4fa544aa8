import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client';
import { workerPresence } from '../schema';

/** Serialises the workers' leaving, so that of two stopping at once exactly one finds itself the last. */
const LEAVE_LOCK = 'worker_presence.leave';

/** A row older than this is a worker long gone (killed, its host lost): removed so the table stays small. */
const FORGOTTEN_AFTER = sql`interval '1 day'`;

/** Which workers run now, by the database's clock: what decides who writes the summary before the system stops. */
export const workerPresenceStore = {
  /** The worker is running now. */
  async see(db: DbOrTx, workerId: string): Promise<void> {
    await db
      .insert(workerPresence)
      .values({ workerId })
      .onConflictDoUpdate({ target: workerPresence.workerId, set: { seenAt: sql`now()` } });
    await db.delete(workerPresence).where(lt(workerPresence.seenAt, sql`now() - ${FORGOTTEN_AFTER}`));
  },

  /**
   * The worker stops: its row goes, and the answer says whether it was the last running one (no other seen within
   * `freshMs`). Under an advisory lock: of workers leaving at once, only the last to take it finds nobody else.
   */
  leave(db: Db, workerId: string, freshMs: number): Promise<boolean> {
    return db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${LEAVE_LOCK}))`);
      await tx.delete(workerPresence).where(eq(workerPresence.workerId, workerId));
      const others = await tx
        .select({ workerId: workerPresence.workerId })
        .from(workerPresence)
        .where(and(ne(workerPresence.workerId, workerId), gt(workerPresence.seenAt, sql`now() - make_interval(secs => ${freshMs / 1000})`)))
        .limit(1);
      return others.length === 0;
    });
  },
};
