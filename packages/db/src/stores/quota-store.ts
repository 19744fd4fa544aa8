import { and, eq, sum } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { chains, taxpayers } from '../schema';
import type { Queryable } from './queryable';

/**
 * How many registrations a chain is given beyond what it needs when its account has quota to spare: appends count
 * against the chain's own allowance on its head row, so the account's allocation row is touched once per block, not
 * per invoice.
 */
export const ALLOWANCE_BLOCK = 1000;
/**
 * A chain taking large batches is given this many batches ahead instead: a grant costs a batch a second read of its
 * chain (under the allocation lock), which one block of 1,000 made every other batch of 1,000 pay.
 */
const BATCHES_AHEAD = 4;

/** A chain's allowance for the month as read under its row lock. */
export interface ChainUsage {
  period: string | null;
  used: number;
  allowance: number;
}

export interface AllowanceRequest {
  accountId: string;
  chainId: string;
  /** "YYYY-MM" in Europe/Madrid. */
  period: string;
  /** Registrations the chain is about to append. */
  need: number;
  /** The account's monthly quota. */
  quota: number;
  /** What the account has handed out this month, read by lockAllocation. */
  allocated: number;
  /** The chain's usage, read under its row lock. */
  usage: ChainUsage;
}

/**
 * The monthly quota, exact under any concurrency without a row every registration of an account updates:
 * - each chain holds an allowance for the month on its head row; an append counts against it in the same guarded
 *   UPDATE that advances the head (chain-append-write-store.ts), so nothing else is locked on the hot path;
 * - `quota_allocations` holds how much of the account's quota is handed out; a chain whose allowance runs short
 *   takes a block from it, under the account's allocation row lock, in the same transaction as its append;
 * - when the account has nothing left to hand out, the unused allowances of its other chains are taken back first
 *   (their rows locked, so their in-flight appends finish before), and the chain gets only what it needs.
 * Lock order: allocation row, then the chain's own row, then (reclaiming) the others without waiting; an append
 * statement locks chain rows only, in id order, so no cycle can form.
 */
export const quotaStore = {
  /** Locks the account's allocation row for the month (creating it) until the transaction ends; returns what is handed out. */
  async lockAllocation(q: Queryable, accountId: string, period: string): Promise<number> {
    const { rows } = await q.query<{ allocated: number }>({ ...LOCK_ALLOCATION, values: [accountId, period] });
    return rows[0].allocated;
  },

  /**
   * Gives the chain what it lacks for `need` registrations this month, inside the caller's transaction (which holds
   * the allocation row lock, then the chain row lock). Returns how many it may now count: `need` or more, fewer only
   * at the quota.
   */
  async grant(q: Queryable, r: AllowanceRequest): Promise<number> {
    const current = r.usage.period === r.period;
    const used = current ? r.usage.used : 0;
    const allowance = current ? r.usage.allowance : 0;
    const missing = r.need - (allowance - used);
    if (missing <= 0) return allowance - used;

    let allocated = r.allocated;
    const short = r.quota - allocated < missing;
    if (short) {
      const { rows } = await q.query<{ freed: number }>({ ...RECLAIM, values: [r.accountId, r.period, r.chainId] });
      allocated -= rows[0].freed;
    }
    const free = Math.max(0, r.quota - allocated);
    // What it lacks and a block more, so that the next registrations (the next few batches too) need no grant. Near the
    // quota a chain gets only what it needs, so the others' next registrations do not force a reclaim.
    const ahead = Math.max(ALLOWANCE_BLOCK, BATCHES_AHEAD * r.need);
    const granted = Math.min(free, short ? missing : missing + ahead);
    await q.query({ ...SET_ALLOWANCE, values: [r.chainId, r.period, used, allowance + granted, r.accountId, allocated + granted] });
    return allowance + granted - used;
  },

  /** Registrations the account made this month: the sum of its chains' counts. */
  async used(db: DbOrTx, accountId: string, period: string): Promise<number> {
    const [row] = await db
      .select({ used: sum(chains.usageUsed).mapWith(Number) })
      .from(chains)
      .innerJoin(taxpayers, eq(taxpayers.id, chains.taxpayerId))
      .where(and(eq(taxpayers.accountId, accountId), eq(chains.usagePeriod, period)));
    return row?.used ?? 0;
  },
};

const LOCK_ALLOCATION = {
  name: 'vf_quota_lock_allocation',
  text: `
INSERT INTO quota_allocations (account_id, period, allocated) VALUES ($1, $2, 0)
ON CONFLICT (account_id, period) DO UPDATE SET allocated = quota_allocations.allocated
RETURNING allocated`,
};

// Takes back the unused allowance of the account's other chains this month; the rows are locked first, so their
// counts cannot move between the read and the update. Fails with 55P03 when one of them is locked right now.
const RECLAIM = {
  name: 'vf_quota_reclaim',
  text: `
WITH spare AS (
  SELECT c.id, c.usage_allowance - c.usage_used AS n
  FROM chains c JOIN taxpayers t ON t.id = c.taxpayer_id
  WHERE t.account_id = $1 AND c.usage_period = $2 AND c.id <> $3 AND c.usage_allowance > c.usage_used
  ORDER BY c.id
  -- NOWAIT: a chain in the middle of an append is not waited for (the caller retries), so no lock cycle can form
  -- with an append statement that holds chain rows and wants this transaction's own chain row. NO KEY UPDATE: a chain
  -- whose message a worker is opening (FOR KEY SHARE, from its submission's foreign key) is not in an append.
  FOR NO KEY UPDATE OF c NOWAIT
), taken AS (
  UPDATE chains c SET usage_allowance = c.usage_used FROM spare WHERE c.id = spare.id RETURNING spare.n
)
SELECT coalesce(sum(n), 0)::int AS freed FROM taken`,
};

const SET_ALLOWANCE = {
  name: 'vf_quota_set_allowance',
  text: `
WITH chain AS (
  UPDATE chains SET usage_period = $2, usage_used = $3, usage_allowance = $4 WHERE id = $1
)
UPDATE quota_allocations SET allocated = $6 WHERE account_id = $5 AND period = $2`,
};
