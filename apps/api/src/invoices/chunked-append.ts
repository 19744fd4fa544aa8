import type { Db } from '@vf/db';
import {
  appendChainRecords,
  inPoolTransaction,
  quotaStore,
  readAppendContexts,
  StoreError,
  translateDbError,
  type AppendAccount,
  type Queryable,
} from '@vf/db';
import { quotaPeriod } from '../quota/quota-period';
import {
  applied,
  lookupOf,
  NOT_WOKEN,
  prepareGroup,
  RETRYABLE_LOCK_ERRORS,
  type AppendedChain,
  type AppendGroup,
  type Settled,
} from './append-group';
import type { ItemOutcome, RegistrationItem } from './plan-registrations';
import type { AppendOutcome, AppendRequest } from './registration-appender';

/**
 * A batch's registrations of one taxpayer, handed over a chunk at a time: each `next()` validates the next chunk, so
 * that the API validates one chunk while PostgreSQL writes the one before. `need`: the registrations it may carry at
 * most (for the quota grant).
 */
export interface ChunkedAppendRequest {
  account: AppendAccount;
  taxpayerId: string;
  chunks: Iterator<RegistrationItem[]>;
  need: number;
}

/** Thrown inside a chunked append's transaction to roll it back and append its items the usual way. */
const NOT_CHUNKED = Symbol('not chunked');

export interface ChunkedAppendDeps {
  db: Db;
  clock: () => Date;
  afterAppend(chains: AppendedChain[]): Promise<unknown>;
  /** The usual append (group commit), for a batch that cannot be written in chunks. */
  append(request: AppendRequest): Promise<AppendOutcome>;
  /** Holds the taxpayer for this batch, unless a commit of this process has it or registrations of it wait: then false. */
  claim(taxpayerId: string): boolean;
  release(taxpayerId: string): void;
}

/** The appender's way for a batch of one taxpayer (registration-appender.ts keeps every other append). */
export function createChunkedAppend(deps: ChunkedAppendDeps) {
  /**
   * A batch's registrations of one taxpayer in one transaction, written a chunk at a time while the next chunk is
   * validated (the API's CPU and PostgreSQL's overlap instead of taking turns). The transaction holds the account's
   * allocation row and the chain's row from the first read to COMMIT, as a quota-mode append does: each chunk's read
   * sees the head the chunk before left (and its invoices, as duplicates), and nothing of the batch is visible to
   * anyone before COMMIT. A batch that cannot go this way (its taxpayer in a commit of this process, an item over
   * quota, a write refused) is rolled back, nothing of it written, and appended the usual way, every chunk validated.
   */
  return async function appendChunked(request: ChunkedAppendRequest): Promise<AppendOutcome> {
    const { account, taxpayerId } = request;
    const taken: RegistrationItem[] = [];
    const next = (): RegistrationItem[] | undefined => {
      const chunk = request.chunks.next();
      if (chunk.done) return undefined;
      taken.push(...chunk.value);
      return chunk.value;
    };
    const usual = (): Promise<AppendOutcome> => {
      while (next());
      return deps.append({ account, taxpayerId, items: taken });
    };
    if (!deps.claim(taxpayerId)) return usual();
    let written: { outcomes: ItemOutcome[]; appended?: AppendedChain } | undefined;
    try {
      written = await inPoolTransaction(deps.db, (client) => writeChunks(client, request, next));
    } catch (err) {
      const translated = translateDbError(err) as { cause?: { code?: string }; code?: string };
      const retryable = translated.code !== undefined && RETRYABLE_LOCK_ERRORS.has(translated.code);
      if (err !== NOT_CHUNKED && !retryable && !(translated instanceof StoreError)) throw err;
    } finally {
      deps.release(taxpayerId);
    }
    if (!written) return usual();
    const { outcomes, appended } = written;
    // As a commit's, the wake-up starts after the answer has been written.
    return { outcomes, woken: appended ? new Promise(setImmediate).then(() => deps.afterAppend([appended])) : NOT_WOKEN };
  };

  async function writeChunks(
    client: Queryable,
    request: ChunkedAppendRequest,
    next: () => RegistrationItem[] | undefined,
  ): Promise<{ outcomes: ItemOutcome[]; appended?: AppendedChain }> {
    const { account, taxpayerId } = request;
    const now = deps.clock();
    const { period } = quotaPeriod(now);
    const allocating = quotaStore.lockAllocation(client, account.id, period);
    allocating.catch(() => undefined);
    // The first chunk is validated while the allocation row is locked.
    let chunk = next();
    const allocated = await allocating;
    const outcomes: ItemOutcome[] = [];
    let available: number | undefined;
    let appended: AppendedChain | undefined;
    while (chunk) {
      if (chunk.length === 0) {
        chunk = next();
        continue;
      }
      const group: AppendGroup = { account, taxpayerId, items: chunk, units: [] };
      const [read] = await readAppendContexts(client, [lookupOf(group)], { lock: available === undefined });
      const ctx = read.context;
      // No such taxpayer: the usual append refuses each item.
      if (!ctx) throw NOT_CHUNKED;
      available ??= await quotaStore.grant(client, {
        accountId: account.id,
        chainId: ctx.chain.id,
        period,
        need: request.need,
        quota: account.plan.monthlyQuota,
        allocated,
        usage: ctx.chain.usage,
      });
      const prepared = prepareGroup(group, read, { period, now, available });
      // Over quota: the usual append counts the refusals after its commit.
      if (prepared.kind !== 'settled' || prepared.overQuota.length > 0) throw NOT_CHUNKED;
      const writing = prepared.pending && appendChainRecords(client, [prepared.pending.write]);
      // Settled below; meanwhile the next chunk is validated while PostgreSQL writes this one.
      writing?.catch(() => undefined);
      chunk = next();
      if (!writing || !prepared.pending) {
        outcomes.push(...(prepared.outcomes as ItemOutcome[]));
        continue;
      }
      const [w] = await writing;
      if (!w.appended) throw NOT_CHUNKED;
      const result = applied(prepared, w.backlog) as Settled;
      outcomes.push(...(result.outcomes as ItemOutcome[]));
      available -= prepared.pending.going.length;
      appended = { chainId: ctx.chain.id, count: (appended?.count ?? 0) + prepared.pending.going.length, backlog: w.backlog };
    }
    return { outcomes, appended };
  }
}
