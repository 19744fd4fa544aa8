import { and, eq, gt, lte } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { accounts, webSessions } from '../schema';

/** A live dashboard session with the few account facts every page shows. */
export interface WebSession {
  id: string;
  accountId: string;
  accountName: string;
  accountEmail: string;
  csrfToken: string;
  createdAt: Date;
  expiresAt: Date;
}

export const webSessionStore = {
  async insert(
    db: DbOrTx,
    values: { tokenDigest: string; accountId: string; csrfToken: string; createdAt: Date; expiresAt: Date },
  ): Promise<string> {
    const [row] = await db.insert(webSessions).values(values).returning({ id: webSessions.id });
    return row.id;
  },

  /** The session for this token digest, unless it has expired. */
  async findLive(db: DbOrTx, tokenDigest: string, now: Date): Promise<WebSession | undefined> {
    const [row] = await db
      .select({
        id: webSessions.id,
        accountId: webSessions.accountId,
        accountName: accounts.name,
        accountEmail: accounts.email,
        csrfToken: webSessions.csrfToken,
        createdAt: webSessions.createdAt,
        expiresAt: webSessions.expiresAt,
      })
      .from(webSessions)
      .innerJoin(accounts, eq(accounts.id, webSessions.accountId))
      .where(and(eq(webSessions.tokenDigest, tokenDigest), gt(webSessions.expiresAt, now)))
      .limit(1);
    return row;
  },

  async extend(db: DbOrTx, id: string, expiresAt: Date): Promise<void> {
    await db.update(webSessions).set({ expiresAt }).where(eq(webSessions.id, id));
  },

  async delete(db: DbOrTx, tokenDigest: string): Promise<void> {
    await db.delete(webSessions).where(eq(webSessions.tokenDigest, tokenDigest));
  },

  async deleteExpired(db: DbOrTx, now: Date): Promise<number> {
    const rows = await db.delete(webSessions).where(lte(webSessions.expiresAt, now)).returning({ id: webSessions.id });
    return rows.length;
  },
};
