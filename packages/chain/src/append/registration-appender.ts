import { MAX_RECORDS_PER_MESSAGE } from '@vf/core';
import { FULL_BATCH, quotaStore, StoreError, translateDbError, type Db } from '@vf/db';
import { withTimeout } from '@vf/lifecycle';
import { wakeChainSenders, type Queues } from '@vf/queue';
import {
  appendAttempts,
  checked,
  type AppendedChain,
  type AppendOutcome,
  type AppendRequest,
  type Group,
  type Mode,
  type Settled,
  type Unit,
} from './append-attempts';
import { recordAppender } from './append-record';
import { quotaPeriod, type ItemOutcome } from './plan-registrations';
import { NO_SIGNER, type RecordSigner } from '../kept/record-signer';

export interface RegistrationAppenderDeps {
  db: Db;
  clock: () => Date;
  /**
   * After a commit: wake the senders of the chains that received records. Resolves to the error when that failed, never
   * rejects. `lone`: the commit's registrations were alone (nothing else waiting), whose wake-ups may be merged.
   */
  afterAppend(chains: AppendedChain[], opts?: { lone?: boolean }): Promise<unknown>;
  /** Records per commit at most (a request is never split); by default, as many as one authority message. */
  maxGroupRecords?: number;
  /**
   * Commits in flight at once, each with its own taxpayers (default 1: registrations that arrive during a commit wait
   * and go together in the next one, so a commit carries more of them; see docs/scaling.md).
   */
  concurrentCommits?: number;
  /** Races for a chain head a group may lose before it locks the head row for its read (default 3). */
  optimisticAttempts?: number;
  /** Signs NO VERI*FACTU records as they are appended; without it, every NO VERI*FACTU record is refused. */
  signer?: RecordSigner;
}

const OPTIMISTIC_ATTEMPTS = 3;

/** Waits of the senders' wake-ups of lone registrations are merged over this many milliseconds (docs/scaling.md). */
const LONE_WAKE_WINDOW_MS = 50;

/** The `woken` of outcomes that stored nothing: no sender to wake. */
const NOT_WOKEN: Promise<unknown> = Promise.resolve(undefined);

/**
 * After commit: wakes the senders of the chains that received records. PostgreSQL already holds the records, so a
 * Redis outage only delays them (the reconciler wakes the chains). Resolves to the error when the wake failed. The
 * wake-ups of lone registrations are merged over `loneWindowMs` (coalescedWake, below); the others go at once.
 */
export function wakeChainSendersAfterAppend(queues: Queues, timeoutMs: number, loneWindowMs = LONE_WAKE_WINDOW_MS) {
  // A full message now waits: the authority lets it go before its waiting time is over.
  const full = ({ count, backlog }: AppendedChain) => backlog >= FULL_BATCH && backlog - count < FULL_BATCH;
  const wake = (chains: Map<string, boolean>): Promise<unknown> =>
    withTimeout(
      wakeChainSenders(
        queues,
        [...chains].map(([chainId, isFull]) => ({ chainId, full: isFull })),
      ),
      timeoutMs,
      'enqueue',
    ).then(
      () => undefined,
      (err: unknown) => err,
    );
  const lone = coalescedWake(wake, loneWindowMs);
  return (chains: AppendedChain[], opts: { lone?: boolean } = {}): Promise<unknown> =>
    opts.lone ? lone(chains, full) : wake(new Map(chains.map((c) => [c.chainId, full(c)])));
}

/**
 * The one writer of chain records. Every append (registration, correction, cancellation) is a compare-and-swap on the
 * chain's head (chain-append-write-store.ts in @vf/db): built on the head read, written only if the head did not move,
 * built again otherwise, and after a few lost races built and written under the head row's lock.
 *
 * Group commit. Registrations that arrive while a commit is in flight wait and go together in the next one, whatever
 * their taxpayers: one read of every chain head involved, one statement that swaps each head and inserts every record,
 * one wake-up of the senders. A taxpayer is in one commit at a time, so its registrations keep their arrival order;
 * each request gets its own result, and an item that fails (system missing, duplicate, over quota) fails alone. Across
 * processes the head swap keeps every chain exact: a taxpayer whose head moved is built again on the new head, and
 * after a few lost races it locks the head row instead.
 */
export function createRegistrationAppender(deps: RegistrationAppenderDeps) {
  const { db, clock, afterAppend } = deps;
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
  const signer = deps.signer ?? NO_SIGNER;
  const attempts = appendAttempts({ db, clock, signer });
  const commit = groupCommit({ db, clock, afterAppend, optimisticAttempts, attempts, pending, busy, pump });

  function append(request: AppendRequest): Promise<AppendOutcome> {
    if (request.items.length === 0) return Promise.resolve({ outcomes: [], woken: NOT_WOKEN });
    return new Promise((resolve, reject) => {
      const owner = 'keyDigest' in request.account ? `key ${request.account.keyDigest}` : request.account.id;
      // A taxpayer's scenario chain is another chain: its units are another group.
      const chain = request.scenario ? '/scenario' : '';
      pending.push({ ...request, key: `${owner}/${request.taxpayerId}${chain}`, resolve, reject });
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
        group = { account: unit.account, taxpayerId: unit.taxpayerId, items: [], units: [], scenario: unit.scenario === true };
        groups.set(unit.key, group);
        busy.add(unit.taxpayerId);
      }
      group.items.push(...unit.items);
      group.units.push(unit);
    }
    return [...groups.values()];
  }

  /** No commit in flight and nothing waiting: a registration arriving now would be committed alone. */
  const idle = () => commits === 0 && pending.length === 0;

  return { append, appendRecord: recordAppender({ db, clock, optimisticAttempts, afterAppend, signer }), idle };
}

export type RegistrationAppender = ReturnType<typeof createRegistrationAppender>;

type Wake = (chains: Map<string, boolean>) => Promise<unknown>;

/**
 * Merges the wake-ups that follow lone registrations: the first goes at once, the ones asked for within `windowMs` of
 * it go together as one when the window ends, and so on. A client registering one invoice after another then costs
 * Redis one wake-up per window instead of one per registration. Every wake-up still starts after the commits it
 * stands for (the check that the chain's job exists is made after them), so no record is left without a sender; a
 * sender looks at most `windowMs` later. `wake`: each chain with whether a full message now waits for it.
 */
export function coalescedWake(wake: Wake, windowMs: number, now: () => number = Date.now) {
  let quietUntil = 0;
  let next: { chains: Map<string, boolean>; woken: Promise<unknown> } | undefined;
  return (chains: AppendedChain[], full: (c: AppendedChain) => boolean): Promise<unknown> => {
    const at = now();
    if (!next && at >= quietUntil) {
      quietUntil = at + windowMs;
      return wake(new Map(chains.map((c) => [c.chainId, full(c)])));
    }
    if (!next) {
      const merged = new Map<string, boolean>();
      const woken = new Promise((resolve) => setTimeout(resolve, Math.max(0, quietUntil - at))).then(() => {
        next = undefined;
        quietUntil = now() + windowMs;
        return wake(merged);
      });
      next = { chains: merged, woken };
    }
    for (const c of chains) next.chains.set(c.chainId, next.chains.get(c.chainId) === true || full(c));
    return next.woken;
  };
}

interface GroupCommitDeps {
  db: Db;
  clock: () => Date;
  afterAppend(chains: AppendedChain[], opts?: { lone?: boolean }): Promise<unknown>;
  optimisticAttempts: number;
  attempts: ReturnType<typeof appendAttempts>;
  /** The writer's queue: the units waiting, and the taxpayers in a commit now. */
  pending: Unit[];
  busy: Set<string>;
  /** Starts the next commits the writer has room for. */
  pump(): void;
}

/**
 * One commit of groups: together while their heads hold, alone when a group lost too many races or needs quota, then
 * each request answered and the senders woken.
 */
function groupCommit(deps: GroupCommitDeps) {
  const { attempts } = deps;

  /**
   * `held`: the taxpayers this commit keeps out of other commits; it lets go early of those it no longer needs to.
   * `letGo`: gives the commit's place among the concurrent commits to the next one before this one ends.
   */
  async function commit(groups: Group[], held: Set<string>, letGo: () => void): Promise<void> {
    const settled = await settle(groups, letGo);
    await answer(deps, settled, held, letGo);
  }

  async function settle(groups: Group[], letGo: () => void): Promise<Map<Group, Settled>> {
    const settled = new Map<Group, Settled>();
    const alone = new Map<Group, Mode>();
    let failure: unknown;
    let racing = groups;
    try {
      for (let attempt = 1; racing.length > 0 && attempt <= deps.optimisticAttempts; attempt++) {
        const results = await attempts.attemptTogether(racing);
        const moved: Group[] = [];
        results.forEach((r, i) => {
          if (r.kind === 'settled') settled.set(racing[i], r);
          else if (r.kind === 'short') alone.set(racing[i], 'quota');
          else if (r.kind === 'kept') alone.set(racing[i], 'locked');
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
        attempts.commitAlone(group, mode).then(
          (r) => settled.set(group, r),
          (err: unknown) => {
            for (const u of group.units) u.reject(err);
          },
        ),
      ),
    );
    return settled;
  }

  return commit;
}

/** Each request of a commit answered, and the senders of the chains that received records woken. */
async function answer(deps: GroupCommitDeps, settled: Map<Group, Settled>, held: Set<string>, letGo: () => void): Promise<void> {
  const { pending, busy } = deps;
  // The answers do not wait for the wake-up: the records are committed, and a wake-up that fails is logged and made
  // good by the reconciler. A taxpayer with registrations already waiting has its next commit wait for it:
  // registrations that arrive meanwhile join that commit, and fewer, larger commits carry more registrations a second
  // (measured), so with anything waiting it starts at once. One with nothing waiting (a client registering one
  // invoice after another) is let go now, and so is the commit's place when nothing at all waits, so that its next
  // registration does not wait for a wake-up that is not its own; its wake-up starts once the answers resolved below
  // have been written (setImmediate runs after this turn's promise callbacks), not ahead of them (docs/scaling.md).
  const appended = [...settled.values()].flatMap((s) => (s.appended ? [s.appended] : []));
  // A lone commit's wake-up may be merged with the next ones (coalescedWake): the next commit waits for nothing of it.
  const woken =
    appended.length === 0
      ? NOT_WOKEN
      : pending.length === 0
        ? new Promise(setImmediate).then(() => deps.afterAppend(appended, { lone: true }))
        : deps.afterAppend(appended);
  for (const [group, s] of settled) {
    if (s.overQuota.length > 0) {
      // Counted after the commit, so the figure includes the group's own registrations.
      const account = checked(group);
      const used = await quotaStore.used(deps.db, account.id, quotaPeriod(deps.clock()).period);
      const refusal: ItemOutcome = { ok: false, error: { code: 'quota_exceeded', account, used, at: deps.clock() } };
      for (const index of s.overQuota) s.outcomes[index] = refusal;
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
    else deps.pump();
  }
  await woken;
}
