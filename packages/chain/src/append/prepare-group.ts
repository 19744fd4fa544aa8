import type { AppendRead } from '@vf/db';
import { allRefused, checked, type Group, type Prepared, type Result } from './append-group';
import { planRegistrations, screenRegistrations, type ItemOutcome } from './plan-registrations';
import { newRecordId } from '../records/new-record-id';
import { modeAt } from '../mode/operating-mode';

/**
 * Screens a group against its chain head and quota and builds its records (pure but for the group's account, taken
 * from the read when the group had only an API key): settled at once when nothing is to be written, otherwise
 * `pending` carries the write. `available`: the allowance granted in quota mode.
 */
export function prepareGroup(
  group: Group,
  read: AppendRead,
  opts: { period: string; now: Date; available?: number },
): Prepared | { kind: 'short' } {
  if ('keyDigest' in group.account) {
    // Nothing is written for a key that names no account (revoked or wrong): each registration is refused.
    if (!read.account) return allRefused(group, { code: 'unauthorized' });
    if (read.recipientCheck) return allRefused(group, { code: 'recipient_check_default' });
    group.account = read.account;
  }
  const ctx = read.context;
  if (!ctx) return allRefused(group, { code: 'taxpayer_not_found' });
  const mode = modeAt(ctx.chain.mode, opts.now);
  const screened = screenRegistrations(ctx, group.items, mode);
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
    { accountId: checked(group).id, period: opts.period, now: opts.now, newId: newRecordId, mode },
  );
  return { kind: 'settled', outcomes, overQuota, pending: { write: plan.write, going, registered: plan.registered, mode } };
}

/** The group's records were written: each written item tells its registration. */
export function applied(p: Prepared, backlog: number): Result {
  const { write, going, registered } = p.pending!;
  const outcomes = [...p.outcomes];
  going.forEach((index, n) => (outcomes[index] = { ok: true, registered: registered[n] }));
  return { kind: 'settled', outcomes, overQuota: p.overQuota, appended: { chainId: write.chainId, count: going.length, backlog } };
}

/** A prepared group with nothing (left) to write, as a result. */
export function finished(p: Prepared | { kind: 'short' }): Result {
  return p.kind === 'settled' ? { kind: 'settled', outcomes: p.outcomes, overQuota: p.overQuota } : p;
}
