import { appendChainRecords, type AppendResult, type Queryable } from '@vf/db';
import { quotaPeriod } from '../quota/quota-period';
import { checked, keyDigestOf, type Group, type Prepared, type Result } from './append-group';
import type { KeptReads } from './kept-reads';
import { applied, prepareGroup } from './prepare-group';

/**
 * A lone group built on the read this process kept of its chain, in one round trip (decision 0072). Undefined, and the
 * kept read forgotten, when the group is anything but registrations all written in VERI*FACTU on it (a refusal, a
 * quota or NO VERI*FACTU is for the usual path to decide on a read of its own) or when its write found the read no
 * longer holds (nothing stored); undefined too when there is no kept read.
 */
export function keptReadAttempt(deps: { pool: Queryable; clock: () => Date; kept: KeptReads }) {
  const { pool, clock, kept } = deps;
  return async function attemptOnKeptRead(group: Group): Promise<Result | undefined> {
    const assumption = kept.assume(group);
    if (!assumption) return undefined;
    const now = clock();
    const { period } = quotaPeriod(now);
    const keyDigest = keyDigestOf(group);
    // prepareGroup gives a group that came with an API key the read's account: a copy, in case the usual path follows.
    const trial = { ...group };
    const p = prepareGroup(trial, assumption.read, { period, now });
    const pending = p.kind === 'settled' ? p.pending : undefined;
    if (!pending || pending.mode !== 'verifactu' || pending.going.length !== group.items.length) {
      kept.forget(group);
      return undefined;
    }
    let appended: AppendResult;
    try {
      [appended] = await appendChainRecords(pool, [{ ...pending.write, assumed: assumption.assumed(pending.write) }]);
    } catch (err) {
      kept.forget(group);
      throw err;
    }
    if (!appended.appended) {
      kept.forget(group);
      return undefined;
    }
    group.account = trial.account;
    kept.keep(group, { account: checked(group), keyDigest }, assumption.read, pending.write);
    return applied(p as Prepared, appended.backlog);
  };
}
