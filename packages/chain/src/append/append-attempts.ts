import {
  appendChainRecords,
  inPoolTransaction,
  quotaStore,
  readAppendContexts,
  registrationCount,
  StoreError,
  translateDbError,
  type AppendAccount,
  type AppendContext,
  type AppendLookup,
  type AppendRead,
  type AppendResult,
  type AppendWrite,
  type AssumedRead,
  type Db,
  type DbOrTx,
  type Queryable,
} from '@vf/db';
import { appendKept } from '../kept/append-kept';
import type { RecordSigner } from '../kept/record-signer';
import { newRecordId } from '../records/new-record-id';
import type { ChainRefusal } from './chain-refusal';
import { waitedOutLockError } from './lock-retry';
import {
  duplicateInvoice,
  modeAt,
  planRegistrations,
  quotaPeriod,
  sealAnswers,
  screenRegistrations,
  type ItemOutcome,
  type OperatingMode,
  type RegisteredInvoice,
  type RegistrationItem,
} from './plan-registrations';

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
type Result = ({ kind: 'settled' } & Settled) | { kind: 'moved' } | { kind: 'short' } | { kind: 'kept' };

/** A settled group whose records are built but not yet written. */
type Prepared = {
  kind: 'settled';
  outcomes: (ItemOutcome | undefined)[];
  overQuota: number[];
  pending?: { write: AppendWrite; going: number[]; registered: RegisteredInvoice[]; mode: OperatingMode };
};

/** Every item of a group refused alike. */
const allRefused = (group: Group, error: ChainRefusal): Prepared => ({
  kind: 'settled',
  outcomes: group.items.map(() => ({ ok: false, error })),
  overQuota: [],
});

/** The group's account, once known: its API key checked by a read. */
export function checked(group: Group): AppendAccount {
  if ('keyDigest' in group.account) throw new Error('the API key of the group was not checked by a read yet');
  return group.account;
}

function lookupOf(group: Group): AppendLookup {
  return {
    ...('keyDigest' in group.account ? { keyDigest: group.account.keyDigest } : { accountId: group.account.id }),
    taxpayerId: group.taxpayerId,
    scenario: group.scenario,
    systemIds: [...new Set(group.items.map((i) => i.invoice.computerSystemId))],
    invoices: group.items.map((i) => i.invoice),
  };
}

/** The API key a group came with, while its read has not checked it yet. */
const keyDigestOf = (group: Group) => ('keyDigest' in group.account ? group.account.keyDigest : undefined);

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

/**
 * Screens a group against its chain head and quota and builds its records (pure but for the group's account, taken
 * from the read when the group had only an API key): settled at once when nothing is to be written, otherwise
 * `pending` carries the write. `available`: the allowance granted in quota mode.
 */
function prepareGroup(
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

/** Chains whose last write's read is kept, at most (the oldest is forgotten first). */
const KEPT_CHAINS = 1000;

interface Kept {
  account: AppendAccount;
  keyDigest?: string;
  read: AppendRead;
}

/**
 * The read of each chain this process last wrote, as it stands after that write: what the next append to the chain
 * would read, unless something else changed it meanwhile. An append built on it needs no read of its own (one round
 * trip instead of two); its write checks that the head did not move and that everything else the read would have
 * found is as assumed (AssumedRead in @vf/db), and when not, it stores nothing and the append reads as always.
 * Keyed by the writer's group key (API key or account, taxpayer, scenario chain or not).
 */
function keptReads() {
  const kept = new Map<string, Kept>();
  const keyOf = (group: Group) => group.units[0].key;

  /** The read to build `group` on, with what its write must check; none when this process has none for its chain. */
  function assume(group: Group): { read: AppendRead; assumed: (write: AppendWrite) => AssumedRead } | undefined {
    const k = kept.get(keyOf(group));
    if (!k) return undefined;
    const ctx = k.read.context!;
    return {
      read: k.read,
      assumed: (write) => ({
        accountId: k.account.id,
        keyDigest: k.keyDigest,
        planId: k.account.plan.id,
        nif: ctx.taxpayer.nif,
        name: ctx.taxpayer.name,
        severalTaxpayers: ctx.severalTaxpayers,
        systems: write.systems.map((id) => ctx.systems.get(id)!),
        invoices: group.items.map((i) => i.invoice),
      }),
    };
  }

  /**
   * After `write`, built on `read` for `group`, was stored: the read as it now stands. `account`: the group's, checked;
   * `keyDigest`: the API key the group came with, when its read checked it.
   */
  function keep(group: Group, who: { account: AppendAccount; keyDigest?: string }, read: AppendRead, write: AppendWrite): void {
    const ctx = read.context!;
    const last = write.records[write.records.length - 1];
    // The write took each single-taxpayer system still free for this taxpayer.
    const taken = write.soleSystems.filter((id) => ctx.systems.get(id)!.soleTaxpayerId === null);
    const systems = taken.length > 0 ? new Map(ctx.systems) : ctx.systems;
    for (const id of taken) systems.set(id, { ...systems.get(id)!, soleTaxpayerId: ctx.taxpayer.id });
    const context: AppendContext = {
      ...ctx,
      chain: {
        ...ctx.chain,
        length: last.chainSeq,
        lastInvoiceId: last.id,
        usage: { ...ctx.chain.usage, used: ctx.chain.usage.used + registrationCount(write) },
      },
      previous: {
        id: last.id,
        issuerNif: last.issuerNif,
        invoiceNumber: last.invoiceNumber,
        invoiceDate: last.invoiceDate,
        hash: last.hash,
        generatedAt: last.generatedAt,
        generatedAtLiteral: last.generatedAtLiteral,
      },
      systems,
      duplicates: new Set(),
    };
    const key = keyOf(group);
    kept.delete(key);
    kept.set(key, { ...who, read: { ...read, context } });
    if (kept.size > KEPT_CHAINS) kept.delete(kept.keys().next().value!);
  }

  /** The chain's kept read no longer holds (or may not): the next append reads. */
  const forget = (group: Group) => kept.delete(keyOf(group));

  return { assume, keep, forget };
}

type KeptReads = ReturnType<typeof keptReads>;

/**
 * A lone group built on the read this process kept of its chain, in one round trip (decision 0072). Undefined, and the
 * kept read forgotten, when the group is anything but registrations all written in VERI*FACTU on it (a refusal, a
 * quota or NO VERI*FACTU is for the usual path to decide on a read of its own) or when its write found the read no
 * longer holds (nothing stored); undefined too when there is no kept read.
 */
function keptReadAttempt(deps: { pool: Queryable; clock: () => Date; kept: KeptReads }) {
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
