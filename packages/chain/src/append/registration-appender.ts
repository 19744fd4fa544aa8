import { MAX_RECORDS_PER_MESSAGE } from '@vf/core';
import { FULL_BATCH, type Db } from '@vf/db';
import { withTimeout } from '@vf/lifecycle';
import { wakeChainSenders, type Queues } from '@vf/queue';
import { appendAttempts } from './append-attempts';
import type { AppendedChain, AppendOutcome, AppendRequest, Group, Unit } from './append-group';
import { recordAppender } from './append-record';
import { coalescedWake, LONE_WAKE_WINDOW_MS } from './coalesced-wake';
import { groupCommit, NOT_WOKEN } from './commit-groups';
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

/**
 * After commit: wakes the senders of the chains that received records. PostgreSQL already holds the records, so a
 * Redis outage only delays them (the reconciler wakes the chains). Resolves to the error when the wake failed. The
 * wake-ups of lone registrations are merged over `loneWindowMs` (coalesced-wake.ts); the others go at once.
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
