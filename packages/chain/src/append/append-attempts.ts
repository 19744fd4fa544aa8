import {
  appendChainRecords,
  inPoolTransaction,
  quotaStore,
  readAppendContexts,
  StoreError,
  translateDbError,
  type Db,
  type Queryable,
} from '@vf/db';
import { quotaPeriod } from '../quota/quota-period';
import { checked, lookupOf, type Group, type Mode, type Result, type Settled } from './append-group';
import type { ChainRefusal } from './chain-refusal';
import { waitedOutLockError } from './lock-retry';
import { duplicateInvoice, screenRegistrations, type RegistrationItem } from './plan-registrations';
import { applied, finished, prepareGroup } from './prepare-group';

/**
 * The two ways a commit appends its groups: together, optimistically (one read, one write, nothing locked between
 * them), and one group alone in a transaction that locks its chain row first (and its account's allocation row in
 * quota mode).
 */
export function appendAttempts(deps: { db: Db; clock: () => Date }) {
  const { db, clock } = deps;
  const pool = db.$client;

  /** Every group in one read and one write, nothing locked between them. */
  async function attemptTogether(groups: Group[]): Promise<Result[]> {
    const now = clock();
    const { period } = quotaPeriod(now);
    const reads = await readAppendContexts(pool, groups.map(lookupOf));
    const prepared = groups.map((g, i) => prepareGroup(g, reads[i], { period, now }));
    const writing = prepared.flatMap((p, i) => (p.kind === 'settled' && p.pending ? [{ i, p }] : []));
    const written =
      writing.length > 0
        ? await appendChainRecords(
            pool,
            writing.map(({ p }) => p.pending!.write),
          )
        : [];
    const results = prepared.map(finished);
    writing.forEach(({ i, p }, n) => {
      const w = written[n];
      results[i] = w.appended ? applied(p, w.backlog) : { kind: 'moved' };
    });
    return results;
  }

  /** One taxpayer in a transaction of its own, its chain row locked (and its account's allocation row in quota mode). */
  async function commitAlone(group: Group, first: Mode): Promise<Settled> {
    let mode = first;
    for (;;) {
      let result: Result;
      try {
        const current = mode;
        result = await inPoolTransaction(db, (client) => attemptAlone(deps, client, group, current));
      } catch (err) {
        if (await waitedOutLockError(err)) continue;
        const translated = translateDbError(err);
        if (!(translated instanceof StoreError)) throw err;
        if (group.items.length === 1)
          return { outcomes: [{ ok: false, error: constraintRefusal(translated, group.items[0]) }], overQuota: [] };
        return oneByOne(group);
      }
      if (result.kind === 'settled') return result;
      if (result.kind === 'short') mode = 'quota';
    }
  }

  async function oneByOne(group: Group): Promise<Settled> {
    const all: Settled = { outcomes: [], overQuota: [] };
    for (const [index, item] of group.items.entries()) {
      const one = await commitAlone({ ...group, items: [item] }, 'locked');
      all.outcomes.push(...one.outcomes);
      if (one.overQuota.length > 0) all.overQuota.push(index);
      if (one.appended) all.appended = { ...one.appended, count: (all.appended?.count ?? 0) + one.appended.count };
    }
    return all;
  }

  return { attemptTogether, commitAlone };
}

/**
 * One attempt of a group alone, in the caller's transaction: its chain row locked first (and, in quota mode, its
 * account's allocation row before it).
 */
async function attemptAlone(deps: { clock: () => Date }, client: Queryable, group: Group, mode: Mode): Promise<Result> {
  const now = deps.clock();
  const { period } = quotaPeriod(now);
  // The allocation row before the chain row: the lock order of every quota write.
  // Quota mode follows a read, which checked the group's API key.
  const allocated = mode === 'quota' ? await quotaStore.lockAllocation(client, checked(group).id, period) : 0;
  const [read] = await readAppendContexts(client, [lookupOf(group)], { lock: true });
  const ctx = read.context;
  let available: number | undefined;
  if (mode === 'quota' && ctx) {
    const need = screenRegistrations(ctx, group.items).filter((e) => e === undefined).length;
    const account = checked(group);
    available = await quotaStore.grant(client, {
      accountId: account.id,
      chainId: ctx.chain.id,
      period,
      need,
      quota: account.plan.monthlyQuota,
      allocated,
      usage: ctx.chain.usage,
    });
  }
  const prepared = prepareGroup(group, read, { period, now, available });
  if (prepared.kind !== 'settled' || !prepared.pending) return finished(prepared);
  const [written] = await appendChainRecords(client, [prepared.pending.write]);
  return written.appended ? applied(prepared, written.backlog) : { kind: 'moved' };
}

function constraintRefusal(err: StoreError, item: RegistrationItem): ChainRefusal {
  return err.kind === 'conflict' ? duplicateInvoice(item.invoice) : { code: 'system_not_found' };
}
