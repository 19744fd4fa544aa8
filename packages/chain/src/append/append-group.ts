import type { AppendAccount, AppendLookup, AppendWrite } from '@vf/db';
import type { OperatingMode } from '../mode/operating-mode';
import type { ChainRefusal } from './chain-refusal';
import type { ItemOutcome, RegisteredInvoice, RegistrationItem } from './plan-registrations';

/**
 * A request's API key, not yet checked: the read of the commit that carries its registrations finds its account
 * (one round trip fewer for a registration alone), and its registrations fail with `unauthorized` when it names none.
 */
export interface ApiKeyOwner {
  keyDigest: string;
}

/** Registrations of one taxpayer, appended together in array order (a request, or a batch's items of that taxpayer). */
export interface AppendRequest {
  account: AppendAccount | ApiKeyOwner;
  taxpayerId: string;
  items: RegistrationItem[];
  /** The items go on the taxpayer's scenario chain (each names its scenario); a request never mixes the two chains. */
  scenario?: boolean;
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

/** A request waiting for its commit. */
export interface Unit extends AppendRequest {
  key: string;
  resolve(outcome: AppendOutcome): void;
  reject(err: unknown): void;
}

/** The units of one taxpayer in one commit, appended together (and of one account, or one API key until the read). */
export interface Group {
  account: AppendAccount | ApiKeyOwner;
  taxpayerId: string;
  items: RegistrationItem[];
  units: Unit[];
  scenario: boolean;
}

/**
 * How an attempt reads heads. `optimistic`: no lock, the write swaps each head only if it did not move. `locked`: one
 * taxpayer, in a transaction holding its chain row (after lost races). `quota`: also holding the account's allocation
 * row, first, to give the chain allowance in the same transaction as its append (see quota-store.ts in @vf/db).
 */
export type Mode = 'optimistic' | 'locked' | 'quota';

/**
 * A group's result: settled (written, or nothing to write), its head moved since the read, its allowance short, or to
 * be signed and kept (NO VERI*FACTU: written only alone, in a transaction with the signed records).
 */
export type Settled = { outcomes: (ItemOutcome | undefined)[]; overQuota: number[]; appended?: AppendedChain };
export type Result = ({ kind: 'settled' } & Settled) | { kind: 'moved' } | { kind: 'short' } | { kind: 'kept' };

/** A settled group whose records are built but not yet written. */
export type Prepared = {
  kind: 'settled';
  outcomes: (ItemOutcome | undefined)[];
  overQuota: number[];
  pending?: { write: AppendWrite; going: number[]; registered: RegisteredInvoice[]; mode: OperatingMode };
};

/** Every item of a group refused alike. */
export const allRefused = (group: Group, error: ChainRefusal): Prepared => ({
  kind: 'settled',
  outcomes: group.items.map(() => ({ ok: false, error })),
  overQuota: [],
});

/** The group's account, once known: its API key checked by a read. */
export function checked(group: Group): AppendAccount {
  if ('keyDigest' in group.account) throw new Error('the API key of the group was not checked by a read yet');
  return group.account;
}

export function lookupOf(group: Group): AppendLookup {
  return {
    ...('keyDigest' in group.account ? { keyDigest: group.account.keyDigest } : { accountId: group.account.id }),
    taxpayerId: group.taxpayerId,
    scenario: group.scenario,
    systemIds: [...new Set(group.items.map((i) => i.invoice.computerSystemId))],
    invoices: group.items.map((i) => i.invoice),
  };
}

/** The API key a group came with, while its read has not checked it yet. */
export const keyDigestOf = (group: Group) => ('keyDigest' in group.account ? group.account.keyDigest : undefined);
