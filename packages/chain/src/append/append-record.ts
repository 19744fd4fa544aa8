import {
  appendChainRecords,
  inPoolTransaction,
  readAppendContexts,
  type AppendContext,
  type AppendLookup,
  type AppendWrite,
  type Db,
  type DbOrTx,
  type Queryable,
} from '@vf/db';
import { appendKept } from '../kept/append-kept';
import type { RecordSigner } from '../kept/record-signer';
import type { AppendedChain } from './append-attempts';
import { ChainRefusedError } from './chain-refusal';
import { waitedOutLockError } from './lock-retry';
import { modeAt } from './plan-registrations';

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
  /** The record goes on the taxpayer's scenario chain (its invoice is a scenario invoice). */
  scenario?: boolean;
  build(ctx: AppendContext, reader: DbOrTx, now: Date): Promise<{ write: AppendWrite; result: T }>;
}

export interface RecordAppended<T> {
  result: T;
  appended: AppendedChain;
  woken: Promise<unknown>;
}

/**
 * One record of an existing invoice, alone: the same compare-and-swap as registrations, no group (corrections and
 * cancellations are rare, and each depends on the invoice's records read after the head). A taxpayer missing from the
 * account throws ChainRefusedError (`taxpayer_not_found`).
 */
export function recordAppender(deps: {
  db: Db;
  clock: () => Date;
  optimisticAttempts: number;
  afterAppend(chains: AppendedChain[]): Promise<unknown>;
  signer: RecordSigner;
}) {
  const { db, clock } = deps;
  const pool = db.$client;
  return async function appendRecord<T>(request: RecordRequest<T>): Promise<RecordAppended<T>> {
    const lookup: AppendLookup = {
      accountId: request.accountId,
      taxpayerId: request.taxpayerId,
      scenario: request.scenario === true,
      systemIds: request.systemIds,
      invoices: [],
    };
    // NO VERI*FACTU: the record is signed and written only under the chain row's lock, with its signature.
    let kept = false;
    const attempt = async (q: Queryable, reader: DbOrTx, lock: boolean) => {
      const [{ context: ctx }] = await readAppendContexts(q, [lookup], { lock });
      if (!ctx) throw new ChainRefusedError({ code: 'taxpayer_not_found' });
      const now = clock();
      kept = modeAt(ctx.chain.mode, now) === 'no_verifactu';
      if (kept && !lock) return undefined;
      const built = await request.build(ctx, reader, now);
      if (kept) {
        const written = await appendKept({ client: q, tx: reader }, ctx, built.write, { signer: deps.signer, now });
        if (written.kind === 'unsigned') throw new ChainRefusedError({ code: 'signing_certificate_unusable', reason: written.reason });
        return written.kind === 'appended' ? { result: built.result, appended: appendedChain(built.write, written.backlog) } : undefined;
      }
      const [written] = await appendChainRecords(q, [built.write]);
      return written.appended ? { result: built.result, appended: appendedChain(built.write, written.backlog) } : undefined;
    };
    let done: { result: T; appended: AppendedChain } | undefined;
    for (let n = 1; !done && !kept && n <= deps.optimisticAttempts; n++) done = await attempt(pool, db, false);
    while (!done) {
      try {
        done = await inPoolTransaction(db, (client, tx) => attempt(client, tx, true));
      } catch (err) {
        if (!(await waitedOutLockError(err))) throw err;
      }
    }
    // Kept records wait for no sender.
    return { ...done, woken: kept ? Promise.resolve(undefined) : deps.afterAppend([done.appended]) };
  };
}

function appendedChain(write: AppendWrite, backlog: number): AppendedChain {
  return { chainId: write.chainId, count: write.records.length, backlog };
}
