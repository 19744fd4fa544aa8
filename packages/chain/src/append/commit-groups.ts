import { quotaStore, StoreError, translateDbError, type Db } from '@vf/db';
import { quotaPeriod } from '../quota/quota-period';
import type { appendAttempts } from './append-attempts';
import { checked, type AppendedChain, type Group, type Mode, type Settled, type Unit } from './append-group';
import type { ItemOutcome } from './plan-registrations';

/** The `woken` of outcomes that stored nothing: no sender to wake. */
export const NOT_WOKEN: Promise<unknown> = Promise.resolve(undefined);

export interface GroupCommitDeps {
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
export function groupCommit(deps: GroupCommitDeps) {
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
  // A lone commit's wake-up may be merged with the next ones (coalesced-wake.ts): the next commit waits for nothing of it.
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
