import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_RECORDS_PER_MESSAGE } from '@vf/core';
import { withTimeout } from '@vf/lifecycle';
import { wakeChainSenders, type Queues } from '@vf/queue';
import type { Db } from '@vf/db';
import {
  appendChainRecords,
  inPoolTransaction,
  quotaStore,
  readAppendContexts,
  StoreError,
  translateDbError,
  type AppendAccount,
  type AppendContext,
  type AppendLookup,
  type AppendRead,
  type AppendWrite,
  type DbOrTx,
  FULL_BATCH,
  type Queryable,
} from '@vf/db';
import { invalidApiKey, type UncheckedApiKey } from '../auth/require-api-key';
import { ApiError } from '../errors/api-error';
import { quotaExceeded } from '../quota/quota-exceeded';
import { quotaPeriod } from '../quota/quota-period';
import {
  duplicateInvoice,
  planRegistrations,
  screenRegistrations,
  systemNotFound,
  taxpayerNotFound,
  type ItemOutcome,
  type RegisteredInvoice,
  type RegistrationItem,
} from './plan-registrations';
import { newRecordId } from './new-record-id';

/**
 * A request's API key, not yet checked: the read of the commit that carries its registrations finds its account
 * (one round trip fewer for a registration alone), and its registrations fail with the 401 when it names none.
 */
export type ApiKeyOwner = Pick<UncheckedApiKey, 'keyDigest'>;

/** Registrations of one taxpayer, appended together in array order (a request, or a batch's items of that taxpayer). */
export interface AppendRequest {
  account: AppendAccount | ApiKeyOwner;
  taxpayerId: string;
  items: RegistrationItem[];
}

/**
 * Each item's outcome, in order, as soon as the records are committed. `woken` settles once their chain's sender
 * has been woken, to the error when that failed (the records are stored; the reconciler enqueues them).
 */
export interface AppendOutcome {
  outcomes: ItemOutcome[];
  woken: Promise<unknown>;
}

/** A chain that received records in a commit, and how many records of it wait to be sent. */
export interface AppendedChain {
  chainId: string;
  count: number;
  backlog: number;
}

export interface RegistrationAppenderDeps {
  db: Db;
  clock: () => Date;
  /** After a commit: wake the senders of the chains that received records. Resolves to the error when that failed, never rejects. */
  afterAppend(chains: AppendedChain[]): Promise<unknown>;
  /** Records per commit at most (a request is never split); by default, as many as one authority message. */
  maxGroupRecords?: number;
  /**
   * Commits in flight at once, each with its own taxpayers (default 1: registrations that arrive during a commit wait
   * and go together in the next one, so a commit carries more of them; see docs/scaling.md).
   */
  concurrentCommits?: number;
  /** Races for a chain head a group may lose before it locks the head row for its read (default 3). */
  optimisticAttempts?: number;
}

/**
 * One record of an existing invoice (a correction or a cancellation), built on the chain head the writer read.
 * `build` reads what else it needs through `reader`, after the head was read: whatever is appended after that read
 * moves the head, and the write is refused and built again. It throws to refuse the request.
 */
export interface RecordRequest<T> {
  accountId: string;
  taxpayerId: string;
  /** The systems the record names (checked against the read's `systems`). */
  systemIds: string[];
  build(ctx: AppendContext, reader: DbOrTx, now: Date): Promise<{ write: AppendWrite; result: T }>;
}

interface Unit extends AppendRequest {
  key: string;
  resolve(outcome: AppendOutcome): void;
  reject(err: unknown): void;
}

/** The units of one taxpayer in one commit, appended together (and of one account, or one API key until the read). */
interface Group {
  account: AppendAccount | ApiKeyOwner;
  taxpayerId: string;
  items: RegistrationItem[];
  units: Unit[];
}

/**
 * How an attempt reads heads. `optimistic`: no lock, the write swaps each head only if it did not move. `locked`: one
 * taxpayer, in a transaction holding its chain row (after lost races). `quota`: also holding the account's allocation
 * row, first, to give the chain allowance in the same transaction as its append (see quota-store.ts).
 */
type Mode = 'optimistic' | 'locked' | 'quota';

/** A group's result: settled (written, or nothing to write), its head moved since the read, or its allowance short. */
type Settled = { outcomes: (ItemOutcome | undefined)[]; overQuota: number[]; appended?: AppendedChain };
type Result = ({ kind: 'settled' } & Settled) | { kind: 'moved' } | { kind: 'short' };

const OPTIMISTIC_ATTEMPTS = 3;
/** The `woken` of outcomes that stored nothing: no sender to wake. */
const NOT_WOKEN: Promise<unknown> = Promise.resolve(undefined);
// PostgreSQL's "deadlock detected" and "lock not available" (a reclaim that met a chain mid-append): try again.
const RETRYABLE_LOCK_ERRORS = new Set(['40P01', '55P03']);

/**
 * After commit: wakes the senders of the chains that received records. PostgreSQL already holds the records, so a
 * Redis outage only delays them (the reconciler wakes the chains). Resolves to the error when the wake failed.
 */
export function wakeChainSendersAfterAppend(queues: Queues, timeoutMs: number) {
  // A full message now waits: the authority lets it go before its waiting time is over.
  const full = ({ count, backlog }: AppendedChain) => backlog >= FULL_BATCH && backlog - count < FULL_BATCH;
  return (chains: AppendedChain[]): Promise<unknown> => {
    const wake = wakeChainSenders(
      queues,
      chains.map((c) => ({ chainId: c.chainId, full: full(c) })),
    );
    return withTimeout(wake, timeoutMs, 'enqueue').then(
      () => undefined,
      (err: unknown) => err,
    );
  };
}

/**
 * The one writer of chain records. Every append (registration, correction, cancellation) is a compare-and-swap on the
 * chain's head (chain-append-store.ts): built on the head read, written only if the head did not move, built again
 * otherwise, and after a few lost races built and written under the head row's lock.
 *
 * Group commit. Registrations that arrive while a commit is in flight wait and go together in the next one, whatever
 * their taxpayers: one read of every chain head involved, one statement that swaps each head and inserts every record
 * (chain-append-store.ts), one wake-up of the senders. A taxpayer is in one commit at a time, so its
 * registrations keep their arrival order; each request gets its own result, and an item that fails (system missing,
 * duplicate, over quota) fails alone. Across processes the head swap keeps every chain exact: a taxpayer whose head
 * moved is built again on the new head, and after a few lost races it locks the head row instead.
 */
export function createRegistrationAppender(deps: RegistrationAppenderDeps) {
  const { db, clock } = deps;
  const pool = db.$client;
  const maxGroup = deps.maxGroupRecords ?? MAX_RECORDS_PER_MESSAGE;
  const maxCommits = deps.concurrentCommits ?? 1;
  const optimisticAttempts = deps.optimisticAttempts ?? OPTIMISTIC_ATTEMPTS;
  const pending: Unit[] = [];
  /**
   * Taxpayers (by id) in a commit now: their next registrations wait for it. By taxpayer, not by account: the units of
   * one API key and those of its account (whose key was checked before) never write the same chain in one commit.
   */
  const busy = new Set<string>();
  let commits = 0;

  function append(request: AppendRequest): Promise<AppendOutcome> {
    if (request.items.length === 0) return Promise.resolve({ outcomes: [], woken: NOT_WOKEN });
    return new Promise((resolve, reject) => {
      const owner = 'keyDigest' in request.account ? `key ${request.account.keyDigest}` : request.account.id;
      pending.push({ ...request, key: `${owner}/${request.taxpayerId}`, resolve, reject });
      pump();
    });
  }

  function pump(): void {
    while (commits < maxCommits) {
      const groups = takeGroups();
      if (groups.length === 0) return;
      commits += 1;
      const held = new Set(groups.map((g) => g.taxpayerId));
      let slot = true;
      const letGo = () => {
        if (slot) commits -= 1;
        slot = false;
        pump();
      };
      void commit(groups, held, letGo).finally(() => {
        for (const key of held) busy.delete(key);
        letGo();
      });
    }
  }

  /** The waiting units of taxpayers not in a commit, in arrival order, up to maxGroup records (the first always goes). */
  function takeGroups(): Group[] {
    const groups = new Map<string, Group>();
    /** Taxpayers with a unit left waiting in this pass: their later units wait too, to keep the arrival order. */
    const passed = new Set<string>();
    let records = 0;
    for (let i = 0; i < pending.length;) {
      const unit = pending[i];
      if (passed.has(unit.taxpayerId) || (busy.has(unit.taxpayerId) && !groups.has(unit.key))) {
        passed.add(unit.taxpayerId);
        i += 1;
        continue;
      }
      if (records > 0 && records + unit.items.length > maxGroup) break;
      pending.splice(i, 1);
      records += unit.items.length;
      let group = groups.get(unit.key);
      if (!group) {
        group = { account: unit.account, taxpayerId: unit.taxpayerId, items: [], units: [] };
        groups.set(unit.key, group);
        busy.add(unit.taxpayerId);
      }
      group.items.push(...unit.items);
      group.units.push(unit);
    }
    return [...groups.values()];
  }

  /**
   * `held`: the taxpayers this commit keeps out of other commits; it lets go early of those it no longer needs to.
   * `letGo`: gives the commit's place among the concurrent commits to the next one before this one ends.
   */
  async function commit(groups: Group[], held: Set<string>, letGo: () => void): Promise<void> {
    const settled = new Map<Group, Settled>();
    const alone = new Map<Group, Mode>();
    let failure: unknown;
    let racing = groups;
    try {
      for (let attempt = 1; racing.length > 0 && attempt <= optimisticAttempts; attempt++) {
        const results = await attemptTogether(racing);
        const moved: Group[] = [];
        results.forEach((r, i) => {
          if (r.kind === 'settled') settled.set(racing[i], r);
          else if (r.kind === 'short') alone.set(racing[i], 'quota');
          else moved.push(racing[i]);
        });
        racing = moved;
      }
    } catch (err) {
      // Nothing of the failed attempt was written. A system deleted, or a number taken, between the read and the
      // write: each taxpayer alone finds out which of its items it was. Anything else fails what is left.
      if (!(translateDbError(err) instanceof StoreError)) failure = err;
    }
    for (const group of racing) if (!alone.has(group)) alone.set(group, 'locked');
    if (failure !== undefined) {
      for (const group of alone.keys()) for (const u of group.units) u.reject(failure);
      alone.clear();
    }
    // A transaction of its own (a quota grant, or races lost to another process) takes round trips that the other
    // taxpayers' registrations need not wait for.
    if (alone.size > 0) letGo();
    await Promise.all(
      [...alone].map(([group, mode]) =>
        commitAlone(group, mode).then(
          (r) => settled.set(group, r),
          (err: unknown) => {
            for (const u of group.units) u.reject(err);
          },
        ),
      ),
    );

    // The answers do not wait for the wake-up: the records are committed, and a wake-up that fails is logged and made
    // good by the reconciler. A taxpayer with registrations already waiting has its next commit wait for it:
    // registrations that arrive meanwhile join that commit, and fewer, larger commits carry more registrations a second
    // (measured), so with anything waiting it starts at once. One with nothing waiting (a client registering one
    // invoice after another) is let go now, and so is the commit's place when nothing at all waits, so that its next
    // registration does not wait for a wake-up that is not its own; its wake-up starts once the answers resolved below
    // have been written (setImmediate runs after this turn's promise callbacks), not ahead of them (docs/scaling.md).
    const appended = [...settled.values()].flatMap((s) => (s.appended ? [s.appended] : []));
    const wake = () => deps.afterAppend(appended);
    const woken = appended.length === 0 ? NOT_WOKEN : pending.length === 0 ? new Promise(setImmediate).then(wake) : wake();
    for (const [group, s] of settled) {
      if (s.overQuota.length > 0) {
        // Counted after the commit, so the figure includes the group's own registrations.
        const account = checked(group);
        const refusal = quotaExceeded(account, await quotaStore.used(db, account.id, quotaPeriod(clock()).period), clock());
        for (const index of s.overQuota) s.outcomes[index] = { ok: false, error: refusal };
      }
      let at = 0;
      for (const unit of group.units) {
        unit.resolve({
          outcomes: s.outcomes.slice(at, at + unit.items.length) as ItemOutcome[],
          woken: s.appended ? woken : NOT_WOKEN,
        });
        at += unit.items.length;
      }
    }
    if (woken !== NOT_WOKEN) {
      for (const taxpayerId of held) {
        if (pending.some((u) => u.taxpayerId === taxpayerId)) continue;
        held.delete(taxpayerId);
        busy.delete(taxpayerId);
      }
      if (pending.length === 0) letGo();
      else pump();
    }
    await woken;
  }

  /** Every group in one read and one write, nothing locked between them. */
  async function attemptTogether(groups: Group[]): Promise<Result[]> {
    const now = clock();
    const { period } = quotaPeriod(now);
    const reads = await readAppendContexts(pool, groups.map(lookupOf));
    const prepared = groups.map((g, i) => prepare(g, reads[i], { period, now }));
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
        result = await inPoolTransaction(db, (client) => attemptAlone(client, group, current));
      } catch (err) {
        const code = (translateDbError(err) as { cause?: { code?: string }; code?: string }).code;
        if (code && RETRYABLE_LOCK_ERRORS.has(code)) {
          await sleep(5 + Math.random() * 20);
          continue;
        }
        const translated = translateDbError(err);
        if (!(translated instanceof StoreError)) throw err;
        if (group.items.length === 1)
          return { outcomes: [{ ok: false, error: constraintError(translated, group.items[0]) }], overQuota: [] };
        return oneByOne(group);
      }
      if (result.kind === 'settled') return result;
      if (result.kind === 'short') mode = 'quota';
    }
  }

  async function attemptAlone(client: Queryable, group: Group, mode: Mode): Promise<Result> {
    const now = clock();
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
    const prepared = prepare(group, read, { period, now, available });
    if (prepared.kind !== 'settled' || !prepared.pending) return finished(prepared);
    const [written] = await appendChainRecords(client, [prepared.pending.write]);
    return written.appended ? applied(prepared, written.backlog) : { kind: 'moved' };
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

  /**
   * Screens a group against its chain head and quota and builds its records (pure but for the group's account, taken
   * from the read when the group had only an API key): settled at once when nothing is to be written, otherwise
   * `pending` carries the write. `available`: the allowance granted in quota mode.
   */
  function prepare(group: Group, read: AppendRead, opts: { period: string; now: Date; available?: number }): Prepared | { kind: 'short' } {
    if ('keyDigest' in group.account) {
      // Nothing is written for a key that names no account (revoked or wrong): each registration gets the 401.
      if (!read.account)
        return { kind: 'settled', outcomes: group.items.map(() => ({ ok: false, error: invalidApiKey() })), overQuota: [] };
      group.account = read.account;
    }
    const ctx = read.context;
    if (!ctx) return { kind: 'settled', outcomes: group.items.map(() => ({ ok: false, error: taxpayerNotFound() })), overQuota: [] };
    const screened = screenRegistrations(ctx, group.items);
    const candidates = screened.flatMap((error, index) => (error ? [] : [index]));
    const usage = ctx.chain.usage;
    const available = opts.available ?? (usage.period === opts.period ? usage.allowance - usage.used : 0);
    if (opts.available === undefined && candidates.length > available) return { kind: 'short' };
    const going = candidates.slice(0, Math.max(0, available));
    const outcomes: (ItemOutcome | undefined)[] = screened.map((error) => (error ? { ok: false, error } : undefined));
    const overQuota = candidates.slice(going.length);
    if (going.length === 0) return { kind: 'settled', outcomes, overQuota };
    const plan = planRegistrations(
      ctx,
      going.map((index) => group.items[index]),
      { accountId: checked(group).id, period: opts.period, now: opts.now, newId: newRecordId },
    );
    return { kind: 'settled', outcomes, overQuota, pending: { write: plan.write, going, registered: plan.registered } };
  }

  /**
   * One record of an existing invoice, alone: the same compare-and-swap as registrations, no group (corrections and
   * cancellations are rare, and each depends on the invoice's records read after the head).
   */
  async function appendRecord<T>(request: RecordRequest<T>): Promise<{ result: T; appended: AppendedChain; woken: Promise<unknown> }> {
    const lookup: AppendLookup = {
      accountId: request.accountId,
      taxpayerId: request.taxpayerId,
      systemIds: request.systemIds,
      invoices: [],
    };
    const attempt = async (q: Queryable, reader: DbOrTx, lock: boolean) => {
      const [{ context: ctx }] = await readAppendContexts(q, [lookup], { lock });
      if (!ctx) throw taxpayerNotFound();
      const built = await request.build(ctx, reader, clock());
      const [written] = await appendChainRecords(q, [built.write]);
      return written.appended ? { result: built.result, appended: appendedChain(built.write, written.backlog) } : undefined;
    };
    let done: { result: T; appended: AppendedChain } | undefined;
    for (let n = 1; !done && n <= optimisticAttempts; n++) done = await attempt(pool, db, false);
    while (!done) {
      try {
        done = await inPoolTransaction(db, (client, tx) => attempt(client, tx, true));
      } catch (err) {
        const code = (translateDbError(err) as { cause?: { code?: string }; code?: string }).code;
        if (!code || !RETRYABLE_LOCK_ERRORS.has(code)) throw err;
        await sleep(5 + Math.random() * 20);
      }
    }
    return { ...done, woken: deps.afterAppend([done.appended]) };
  }

  /** No commit in flight and nothing waiting: a registration arriving now would be committed alone. */
  const idle = () => commits === 0 && pending.length === 0;

  return { append, appendRecord, idle };
}

function appendedChain(write: AppendWrite, backlog: number): AppendedChain {
  return { chainId: write.chainId, count: write.records.length, backlog };
}

export type RegistrationAppender = ReturnType<typeof createRegistrationAppender>;

/** A settled group whose records are built but not yet written. */
type Prepared = {
  kind: 'settled';
  outcomes: (ItemOutcome | undefined)[];
  overQuota: number[];
  pending?: { write: ReturnType<typeof planRegistrations>['write']; going: number[]; registered: RegisteredInvoice[] };
};

/** The group's records were written: each written item tells its registration. */
function applied(p: Prepared, backlog: number): Result {
  const { write, going, registered } = p.pending!;
  const outcomes = [...p.outcomes];
  going.forEach((index, n) => (outcomes[index] = { ok: true, registered: registered[n] }));
  return { kind: 'settled', outcomes, overQuota: p.overQuota, appended: { chainId: write.chainId, count: going.length, backlog } };
}

/** A prepared group with nothing (left) to write, as a result. */
function finished(p: Prepared | { kind: 'short' }): Result {
  return p.kind === 'settled' ? { kind: 'settled', outcomes: p.outcomes, overQuota: p.overQuota } : p;
}

/** The group's account, once known: its API key checked by a read. */
function checked(group: Group): AppendAccount {
  if ('keyDigest' in group.account) throw new Error('the API key of the group was not checked by a read yet');
  return group.account;
}

function lookupOf(group: Group): AppendLookup {
  return {
    ...('keyDigest' in group.account ? { keyDigest: group.account.keyDigest } : { accountId: group.account.id }),
    taxpayerId: group.taxpayerId,
    systemIds: [...new Set(group.items.map((i) => i.invoice.computerSystemId))],
    invoices: group.items.map((i) => i.invoice),
  };
}

function constraintError(err: StoreError, item: RegistrationItem): ApiError {
  return err.kind === 'conflict' ? duplicateInvoice(item.invoice) : systemNotFound();
}
