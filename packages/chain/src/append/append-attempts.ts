import {
  appendChainRecords,
  inPoolTransaction,
  quotaStore,
  readAppendContexts,
  StoreError,
  translateDbError,
  type AppendContext,
  type Db,
  type DbOrTx,
  type Queryable,
} from '@vf/db';
import { appendKept } from '../kept/append-kept';
import type { RecordSigner } from '../kept/record-signer';
import { modeAt } from '../mode/operating-mode';
import { quotaPeriod } from '../quota/quota-period';
import { checked, keyDigestOf, lookupOf, type Group, type Mode, type Result, type Settled } from './append-group';
import type { ChainRefusal } from './chain-refusal';
import { waitedOutLockError } from './lock-retry';
import { duplicateInvoice, sealAnswers, screenRegistrations, type RegistrationItem } from './plan-registrations';
import { keptReadAttempt } from './kept-read-attempt';
import { keptReads } from './kept-reads';
import { applied, finished, prepareGroup } from './prepare-group';
import type { Prepared } from './append-group';

/**
 * The two ways a commit appends its groups: together, optimistically (one read, one write, nothing locked between
 * them), and one group alone in a transaction that locks its chain row first (and its account's allocation row in
 * quota mode).
 */
export function appendAttempts(deps: { db: Db; clock: () => Date; signer: RecordSigner }) {
  const { db, clock } = deps;
  const pool = db.$client;
  const kept = keptReads();
  const attemptOnKeptRead = keptReadAttempt({ pool, clock, kept });

  /**
   * Every group in one read and one write, nothing locked between them; a lone request first on its chain's kept read.
   * Only a lone one: while a commit of several reads, more registrations arrive to go together in the next one, and
   * without that read the commits under load were half as large and cost PostgreSQL more than twice as much a
   * registration (measured: docs/scaling.md).
   */
  async function attemptTogether(groups: Group[]): Promise<Result[]> {
    if (groups.length === 1 && groups[0].units.length === 1) {
      const result = await attemptOnKeptRead(groups[0]);
      if (result) return [result];
    }
    const now = clock();
    const { period } = quotaPeriod(now);
    const digests = groups.map(keyDigestOf);
    const reads = await readAppendContexts(pool, groups.map(lookupOf));
    const prepared = groups.map((g, i) => prepareGroup(g, reads[i], { period, now }));
    // NO VERI*FACTU records are signed and written alone, in a transaction with their signatures.
    const writing = prepared.flatMap((p, i) => (p.kind === 'settled' && p.pending?.mode === 'verifactu' ? [{ i, p }] : []));
    const written =
      writing.length > 0
        ? await appendChainRecords(
            pool,
            writing.map(({ p }) => p.pending!.write),
          )
        : [];
    const results = prepared.map((p): Result =>
      p.kind === 'settled' && p.pending?.mode === 'no_verifactu' ? { kind: 'kept' } : finished(p),
    );
    writing.forEach(({ i, p }, n) => {
      const w = written[n];
      if (w.appended) kept.keep(groups[i], { account: checked(groups[i]), keyDigest: digests[i] }, reads[i], p.pending!.write);
      else kept.forget(groups[i]);
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
        result = await inPoolTransaction(db, (client, tx) => attemptAlone(deps, { client, tx }, group, current));
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
async function attemptAlone(
  deps: { clock: () => Date; signer: RecordSigner },
  q: { client: Queryable; tx: DbOrTx },
  group: Group,
  mode: Mode,
): Promise<Result> {
  const { client } = q;
  const now = deps.clock();
  const { period } = quotaPeriod(now);
  // The allocation row before the chain row: the lock order of every quota write.
  // Quota mode follows a read, which checked the group's API key.
  const allocated = mode === 'quota' ? await quotaStore.lockAllocation(client, checked(group).id, period) : 0;
  const [read] = await readAppendContexts(client, [lookupOf(group)], { lock: true });
  const ctx = read.context;
  let available: number | undefined;
  if (mode === 'quota' && ctx) {
    const need = screenRegistrations(ctx, group.items, modeAt(ctx.chain.mode, now)).filter((e) => e === undefined).length;
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
  if (prepared.pending.mode === 'no_verifactu') return keptAlone(deps, q, group, read.context!, prepared, now);
  const [written] = await appendChainRecords(client, [prepared.pending.write]);
  return written.appended ? applied(prepared, written.backlog) : { kind: 'moved' };
}

/** A NO VERI*FACTU group: each record signed, its answer carrying the signed record, then all written together. */
async function keptAlone(
  deps: { signer: RecordSigner },
  q: { client: Queryable; tx: DbOrTx },
  group: Group,
  ctx: AppendContext,
  prepared: Prepared,
  now: Date,
): Promise<Result> {
  const { write, going, registered } = prepared.pending!;
  const kept = await appendKept(q, ctx, write, {
    signer: deps.signer,
    now,
    signed: (records) => {
      records.forEach((r, n) => (registered[n].signedXml = r.xml.toString()));
      sealAnswers(
        write,
        going.map((index) => group.items[index]),
        registered,
      );
    },
  });
  if (kept.kind === 'moved') return kept;
  if (kept.kind === 'unsigned') {
    const outcomes = [...prepared.outcomes];
    for (const index of going) outcomes[index] = { ok: false, error: { code: 'signing_certificate_unusable', reason: kept.reason } };
    return { kind: 'settled', outcomes, overQuota: prepared.overQuota };
  }
  // Kept records wait for no sender: nothing to wake.
  const result = applied(prepared, kept.backlog);
  return result.kind === 'settled' ? { ...result, appended: undefined } : result;
}

function constraintRefusal(err: StoreError, item: RegistrationItem): ChainRefusal {
  return err.kind === 'conflict' ? duplicateInvoice(item.invoice) : { code: 'system_not_found' };
}
