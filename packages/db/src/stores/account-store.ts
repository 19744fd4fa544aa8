import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { accounts, plans } from '../schema';
import { translatingDbErrors } from './store-error';

export type PlanRow = typeof plans.$inferSelect;

/** An account with its plan: what authentication and the account page need. */
export interface AccountWithPlan {
  id: string;
  name: string;
  email: string;
  passwordHash: string;
  apiKeyHint: string;
  apiKeyCreatedAt: Date;
  createdAt: Date;
  plan: { id: string; name: string; monthlyQuota: number };
}

const accountWithPlan = {
  id: accounts.id,
  name: accounts.name,
  email: accounts.email,
  passwordHash: accounts.passwordHash,
  apiKeyHint: accounts.apiKeyHint,
  apiKeyCreatedAt: accounts.apiKeyCreatedAt,
  createdAt: accounts.createdAt,
  plan: { id: plans.id, name: plans.name, monthlyQuota: plans.monthlyQuota },
};

async function findOne(db: DbOrTx, where: ReturnType<typeof eq>): Promise<AccountWithPlan | undefined> {
  const [row] = await db.select(accountWithPlan).from(accounts).innerJoin(plans, eq(plans.id, accounts.planId)).where(where).limit(1);
  return row;
}

export const accountStore = {
  async defaultPlan(db: DbOrTx): Promise<PlanRow> {
    const [plan] = await db.select().from(plans).where(eq(plans.isDefault, true)).limit(1);
    if (!plan) throw new Error('no default plan: the plans table is not seeded');
    return plan;
  },

  /** Throws StoreError('conflict') when the email is taken. */
  async insert(db: DbOrTx, values: { name: string; email: string; passwordHash: string; apiKeyDigest: string; apiKeyHint: string; planId: string }): Promise<string> {
    const [row] = await translatingDbErrors(db.insert(accounts).values(values).returning({ id: accounts.id }));
    return row.id;
  },

  findById(db: DbOrTx, id: string): Promise<AccountWithPlan | undefined> {
    return findOne(db, eq(accounts.id, id));
  },

  findByEmail(db: DbOrTx, email: string): Promise<AccountWithPlan | undefined> {
    return findOne(db, eq(accounts.email, email));
  },

  /** Keyed lookup on the unique digest column: one index probe per request. */
  findByKeyDigest(db: DbOrTx, digest: string): Promise<AccountWithPlan | undefined> {
    return findOne(db, eq(accounts.apiKeyDigest, digest));
  },

  /** Replaces the key; the old digest no longer matches anything once this commits. */
  async replaceKey(db: DbOrTx, id: string, key: { apiKeyDigest: string; apiKeyHint: string }): Promise<void> {
    const now = new Date();
    await db
      .update(accounts)
      .set({ ...key, apiKeyCreatedAt: now, updatedAt: now })
      .where(eq(accounts.id, id));
  },
};
