import type { AppendAccount, AppendLookup, AppendRead } from '@vf/db';
import { invalidApiKey, type UncheckedApiKey } from '../auth/require-api-key';
import { newRecordId } from './new-record-id';
import {
  planRegistrations,
  screenRegistrations,
  taxpayerNotFound,
  type ItemOutcome,
  type RegisteredInvoice,
  type RegistrationItem,
} from './plan-registrations';

/**
 * A request's API key, not yet checked: the read of the commit that carries its registrations finds its account
 * (one round trip fewer for a registration alone), and its registrations fail with the 401 when it names none.
 */
export type ApiKeyOwner = Pick<UncheckedApiKey, 'keyDigest'>;

/** The `woken` of outcomes that stored nothing: no sender to wake. */
export const NOT_WOKEN: Promise<unknown> = Promise.resolve(undefined);
// PostgreSQL's "deadlock detected" and "lock not available" (a reclaim that met a chain mid-append): try again.
export const RETRYABLE_LOCK_ERRORS = new Set(['40P01', '55P03']);

/** A chain that received records in a commit, and how many records of it wait to be sent. */
export interface AppendedChain {
  chainId: string;
  count: number;
  backlog: number;
}

/** The units of one taxpayer in one commit, appended together (and of one account, or one API key until the read). */
export interface AppendGroup<U = unknown> {
  account: AppendAccount | ApiKeyOwner;
  taxpayerId: string;
  items: RegistrationItem[];
  units: U[];
}

/** A group's result: settled (written, or nothing to write), its head moved since the read, or its allowance short. */
export type Settled = { outcomes: (ItemOutcome | undefined)[]; overQuota: number[]; appended?: AppendedChain };
export type Result = ({ kind: 'settled' } & Settled) | { kind: 'moved' } | { kind: 'short' };

/**
 * Screens a group against its chain head and quota and builds its records (pure but for the group's account, taken
 * from the read when the group had only an API key): settled at once when nothing is to be written, otherwise
 * `pending` carries the write. `available`: the allowance granted in quota mode.
 */
export function prepareGroup(
  group: AppendGroup,
  read: AppendRead,
  opts: { period: string; now: Date; available?: number },
): Prepared | { kind: 'short' } {
  if ('keyDigest' in group.account) {
    // Nothing is written for a key that names no account (revoked or wrong): each registration gets the 401.
    if (!read.account) return { kind: 'settled', outcomes: group.items.map(() => ({ ok: false, error: invalidApiKey() })), overQuota: [] };
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

/** A settled group whose records are built but not yet written. */
export type Prepared = {
  kind: 'settled';
  outcomes: (ItemOutcome | undefined)[];
  overQuota: number[];
  pending?: { write: ReturnType<typeof planRegistrations>['write']; going: number[]; registered: RegisteredInvoice[] };
};

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

/** The group's account, once known: its API key checked by a read. */
export function checked(group: AppendGroup): AppendAccount {
  if ('keyDigest' in group.account) throw new Error('the API key of the group was not checked by a read yet');
  return group.account;
}

export function lookupOf(group: AppendGroup): AppendLookup {
  return {
    ...('keyDigest' in group.account ? { keyDigest: group.account.keyDigest } : { accountId: group.account.id }),
    taxpayerId: group.taxpayerId,
    systemIds: [...new Set(group.items.map((i) => i.invoice.computerSystemId))],
    invoices: group.items.map((i) => i.invoice),
  };
}
