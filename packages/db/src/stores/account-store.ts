import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client';
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
  /** The account's default `recipient_check` for registrations (null: none). */
  recipientCheck: 'warn' | 'refuse' | null;
}

const accountWithPlan = {
  id: accounts.id,
  name: accounts.name,
  email: accounts.email,
  passwordHash: accounts.passwordHash,
  apiKeyHint: accounts.apiKeyHint,
  apiKeyCreatedAt: accounts.apiKeyCreatedAt,
  createdAt: accounts.createdAt,
  recipientCheck: accounts.recipientCheck,
  plan: { id: plans.id, name: plans.name, monthlyQuota: plans.monthlyQuota },
};

async function findOne(db: DbOrTx, where: ReturnType<typeof eq>): Promise<AccountWithPlan | undefined> {
  const [row] = await db.select(accountWithPlan).from(accounts).innerJoin(plans, eq(plans.id, accounts.planId)).where(where).limit(1);
  return row;
}

// Every API request authenticates: built once per database and prepared on the server, never rebuilt per request.
const byKeyDigests = new WeakMap<Db, ReturnType<typeof prepareByKeyDigests>>();
function prepareByKeyDigests(db: Db) {
  return db
    .select({ ...accountWithPlan, apiKeyDigest: accounts.apiKeyDigest })
    .from(accounts)
    .innerJoin(plans, eq(plans.id, accounts.planId))
    .where(sql`${accounts.apiKeyDigest} = ANY(${sql.placeholder('digests')}::text[])`)
    .prepare('vf_accounts_by_key_digests');
}

export const accountStore = {
  async defaultPlan(db: DbOrTx): Promise<PlanRow> {
    const [plan] = await db.select().from(plans).where(eq(plans.isDefault, true)).limit(1);
    if (!plan) throw new Error('no default plan: the plans table is not seeded');
    return plan;
  },

  /** Throws StoreError('conflict') when the email is taken. */
  async insert(
    db: DbOrTx,
    values: { name: string; email: string; passwordHash: string; apiKeyDigest: string; apiKeyHint: string; planId: string },
  ): Promise<string> {
    const [row] = await translatingDbErrors(db.insert(accounts).values(values).returning({ id: accounts.id }));
    return row.id;
  },

  findById(db: DbOrTx, id: string): Promise<AccountWithPlan | undefined> {
    return findOne(db, eq(accounts.id, id));
  },

  findByEmail(db: DbOrTx, email: string): Promise<AccountWithPlan | undefined> {
    return findOne(db, eq(accounts.email, email));
  },

  /** The accounts of API key digests (unique column, one index probe each), in one prepared statement. */
  async findByKeyDigests(db: Db, digests: readonly string[]): Promise<(AccountWithPlan & { apiKeyDigest: string })[]> {
    let prepared = byKeyDigests.get(db);
    if (!prepared) byKeyDigests.set(db, (prepared = prepareByKeyDigests(db)));
    return prepared.execute({ digests });
  },

  /** Replaces the key; the old digest no longer matches anything once this commits. */
  async replaceKey(db: DbOrTx, id: string, key: { apiKeyDigest: string; apiKeyHint: string }): Promise<void> {
    const now = new Date();
    await db
      .update(accounts)
      .set({ ...key, apiKeyCreatedAt: now, updatedAt: now })
      .where(eq(accounts.id, id));
  },

  /** The account's default `recipient_check` (null: registrations check nothing unless they ask). */
  async setRecipientCheck(db: DbOrTx, id: string, recipientCheck: 'warn' | 'refuse' | null): Promise<void> {
    await db.update(accounts).set({ recipientCheck, updatedAt: new Date() }).where(eq(accounts.id, id));
  },
};
