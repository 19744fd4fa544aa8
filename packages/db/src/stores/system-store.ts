import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { computerSystems, invoices } from '../schema';
import { afterPageKey, pageKeyColumns, type PageKey } from './page-key';
import { translatingDbErrors } from './store-error';

export type SystemRow = typeof computerSystems.$inferSelect;
export type NewSystem = Omit<typeof computerSystems.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
export type SystemPatch = Partial<Omit<NewSystem, 'accountId'>>;

function owned(accountId: string, id: string) {
  return and(eq(computerSystems.accountId, accountId), eq(computerSystems.id, id));
}

export const systemStore = {
  async insert(db: DbOrTx, values: NewSystem): Promise<SystemRow> {
    const [row] = await db.insert(computerSystems).values(values).returning();
    return row;
  },

  list(db: DbOrTx, accountId: string): Promise<SystemRow[]> {
    return db
      .select()
      .from(computerSystems)
      .where(eq(computerSystems.accountId, accountId))
      .orderBy(asc(computerSystems.createdAt), asc(computerSystems.id));
  },

  /** Oldest first; up to `limit` rows after `after`. */
  listPage(db: DbOrTx, accountId: string, after: PageKey | undefined, limit: number): Promise<(SystemRow & { pageKey: PageKey })[]> {
    return db
      .select({ ...getTableColumns(computerSystems), pageKey: pageKeyColumns(computerSystems.createdAt, computerSystems.id) })
      .from(computerSystems)
      .where(
        and(
          eq(computerSystems.accountId, accountId),
          after ? afterPageKey(computerSystems.createdAt, computerSystems.id, after, 'asc') : undefined,
        ),
      )
      .orderBy(asc(computerSystems.createdAt), asc(computerSystems.id))
      .limit(limit);
  },

  async find(db: DbOrTx, accountId: string, id: string): Promise<SystemRow | undefined> {
    const [row] = await db.select().from(computerSystems).where(owned(accountId, id)).limit(1);
    return row;
  },

  async update(db: DbOrTx, accountId: string, id: string, patch: SystemPatch): Promise<SystemRow | undefined> {
    const [row] = await db
      .update(computerSystems)
      .set({ ...patch, updatedAt: new Date() })
      .where(owned(accountId, id))
      .returning();
    return row;
  },

  /**
   * The taxpayers whose records name the system, locking the account's chains and then the system row until the
   * transaction ends (the order registrations lock them in): a registration in flight commits first and is counted,
   * and one that starts after sees the system as it is left. FOR NO KEY UPDATE, the appends' own lock: it excludes
   * them, but not a worker opening a message of a chain (its submission's foreign key holds the row FOR KEY SHARE).
   */
  async lockWithTaxpayers(db: DbOrTx, accountId: string, id: string): Promise<{ system: SystemRow; taxpayerIds: string[] } | undefined> {
    await db.execute(
      sql`SELECT c.id FROM chains c JOIN taxpayers t ON t.id = c.taxpayer_id WHERE t.account_id = ${accountId} ORDER BY c.id FOR NO KEY UPDATE OF c`,
    );
    const [system] = await db.select().from(computerSystems).where(owned(accountId, id)).for('update');
    if (!system) return undefined;
    const rows = await db
      .selectDistinct({ taxpayerId: invoices.taxpayerId })
      .from(invoices)
      .where(sql`${invoices.computerSystemId} = ${id}`)
      .limit(2);
    return { system, taxpayerIds: rows.map((r) => r.taxpayerId) };
  },

  /** Returns false when not found. Throws StoreError('referenced') while invoices point at it. */
  async delete(db: DbOrTx, accountId: string, id: string): Promise<boolean> {
    const rows = await translatingDbErrors(db.delete(computerSystems).where(owned(accountId, id)).returning({ id: computerSystems.id }));
    return rows.length > 0;
  },
};
