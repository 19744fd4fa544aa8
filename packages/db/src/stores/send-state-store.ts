import {
  and,
  asc,
  count,
  countDistinct,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  max,
  min,
  or,
  sql,
  type Column,
  type SQL,
} from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { MAX_RECORDS_PER_MESSAGE, WAITING_STATUSES } from '@vf/core';
import type { DbOrTx } from '../client';
import { chains, invoices, senderStops, sendStates, taxpayers } from '../schema';
import { rawRows } from './raw-rows';
import { scheduledForSending } from './scheduled-for-sending';
import { submissionResumeStore, type ResumedRecord } from './submission-resume-store';

/** The authority lets a message go early, whatever the waiting time, once a full message's records are waiting. */
export const FULL_BATCH = MAX_RECORDS_PER_MESSAGE;

/** Flow control, failure backoff and the single-sender lease of one chain (one NIF in one environment). */
export interface SendState {
  chainId: string;
  nextSendAt: Date;
  waitSeconds: number;
  lastSendAt: Date | null;
  consecutiveFailures: number;
  /** Start of the current run of failed sends; null while answers arrive. */
  failingSince: Date | null;
  leaseOwner: string | null;
  leaseUntil: Date | null;
}

/** What a sender leaves when it lets the lease go: when the chain may send next, and whether records still wait. */
export interface LeaseEnd {
  nextSendAt: Date;
  waiting: boolean;
}

export type LeaseAttempt =
  | { acquired: true; state: SendState }
  /** retryAt: the earliest moment this caller could send: lease expiry (held by another) and flow control both passed. */
  | { acquired: false; reason: 'leased' | 'flow_control'; retryAt: Date };

/**
 * Records of one taxpayer's chain (one environment) still on their way to the authority, and when that chain's flow
 * control lets the next message go.
 */
export interface PendingForTaxpayer {
  taxpayerId: string;
  chainId: string;
  nif: string;
  name: string;
  /** The chain's environment, which may differ from the taxpayer's current one after a switch. */
  isProduction: boolean;
  waiting: number;
  oldestGeneratedAt: Date;
  /** Null until the chain's first send. */
  nextSendAt: Date | null;
  consecutiveFailures: number;
}

/** Records held back by an outage in one account: how many, and since when the earliest failing chain fails. */
export interface OutageSummary {
  waitingRecords: number;
  /** Taxpayers with at least one failing chain. */
  taxpayers: number;
  since: Date;
}

const stateColumns = {
  chainId: sendStates.chainId,
  nextSendAt: sendStates.nextSendAt,
  waitSeconds: sendStates.waitSeconds,
  lastSendAt: sendStates.lastSendAt,
  consecutiveFailures: sendStates.consecutiveFailures,
  failingSince: sendStates.failingSince,
  leaseOwner: sendStates.leaseOwner,
  leaseUntil: sendStates.leaseUntil,
};

const qb = new QueryBuilder();

/** Database time, so that every worker's clock agrees. */
const fromNow = (seconds: number | Column | SQL) => sql`now() + make_interval(secs => ${seconds})`;

// A send may go when the waiting time has elapsed, or when a full message is waiting — but never early while a
// failure backoff is running (consecutive_failures > 0), or a large backlog would turn retries into a storm.
const sendAllowed = or(
  lte(sendStates.nextSendAt, sql`now()`),
  and(
    eq(sendStates.consecutiveFailures, 0),
    gte(
      qb.select({ n: count() }).from(
        qb
          .select({ one: sql`1` })
          .from(invoices)
          .where(and(eq(invoices.chainId, sendStates.chainId), scheduledForSending))
          .limit(FULL_BATCH)
          .as('w'),
      ),
      FULL_BATCH,
    ),
  ),
);

const leaseFree = or(isNull(sendStates.leaseOwner), isNull(sendStates.leaseUntil), lte(sendStates.leaseUntil, sql`now()`));

function owned(chainId: string, owner: string) {
  return and(eq(sendStates.chainId, chainId), eq(sendStates.leaseOwner, owner));
}

/**
 * Flow control and the single-sender lease, one row per chain. Every write of a send's results is fenced on the
 * lease owner: a sender whose lease was taken over can no longer record anything.
 */
export const sendStateStore = {
  /**
   * Tries to become the chain's single sender. One atomic statement: the chain's row made if it has none (a chain's
   * first send may go at once; until its first answer the chain keeps `firstWaitSeconds`, the column's 60 s if not
   * given), else taken only if the lease is free or expired AND flow control allows a send now.
   * The owner token must be unique per acquisition.
   */
  async acquireLease(db: DbOrTx, chainId: string, owner: string, leaseMs: number, firstWaitSeconds?: number): Promise<LeaseAttempt> {
    const lease = { leaseOwner: owner, leaseUntil: fromNow(leaseMs / 1000) };
    const [taken] = await db
      .insert(sendStates)
      .values({ chainId, waitSeconds: firstWaitSeconds, ...lease })
      .onConflictDoUpdate({ target: sendStates.chainId, set: lease, setWhere: and(leaseFree, sendAllowed) })
      .returning(stateColumns);
    if (taken) return { acquired: true, state: taken };

    const [current] = await db
      .select({
        nextSendAt: sendStates.nextSendAt,
        leaseUntil: sendStates.leaseUntil,
        leased: sql<boolean>`(${sendStates.leaseOwner} IS NOT NULL AND ${sendStates.leaseUntil} > now())`,
      })
      .from(sendStates)
      .where(eq(sendStates.chainId, chainId));
    // While another sender works, nobody else may send before the later of its lease expiry and the flow-control time.
    if (current.leased)
      return {
        acquired: false,
        reason: 'leased',
        retryAt: new Date(Math.max(current.leaseUntil!.getTime(), current.nextSendAt.getTime())),
      };
    return { acquired: false, reason: 'flow_control', retryAt: current.nextSendAt };
  },

  /** Heartbeat while a send is in flight. False means the lease was lost (expired and taken over). */
  async renewLease(db: DbOrTx, chainId: string, owner: string, leaseMs: number): Promise<boolean> {
    const rows = await db
      .update(sendStates)
      .set({ leaseUntil: fromNow(leaseMs / 1000) })
      .where(owned(chainId, owner))
      .returning({ chainId: sendStates.chainId });
    return rows.length > 0;
  },

  /**
   * Keeps the lease for another message only if flow control allows one right now (a full message is waiting, or the
   * waiting time is already over). False: the caller must release and wait.
   */
  async continueLease(db: DbOrTx, chainId: string, owner: string, leaseMs: number): Promise<boolean> {
    const rows = await db
      .update(sendStates)
      .set({ leaseUntil: fromNow(leaseMs / 1000) })
      .where(and(owned(chainId, owner), sendAllowed))
      .returning({ chainId: sendStates.chainId });
    return rows.length > 0;
  },

  /**
   * Lets the lease go, only if it is still `owner`'s, and in the same statement (its last write under the lease) says
   * why the records behind the chain's earliest record in `error` waiting for the user wait: each moves to `error`
   * (cause waiting_for_earlier_record) with a history event, those in `error` with a next attempt too (only the holder
   * may move them; they may be in its hands otherwise). Returns when the chain may send next and whether it still has
   * records the workers send, or undefined when the lease was no longer `owner`'s (nothing written).
   */
  async releaseLease(db: DbOrTx, chainId: string, owner: string): Promise<LeaseEnd | undefined> {
    // Raw: a data-modifying CTE. The last SELECT sees the statement's snapshot, so the records it holds are left out.
    const [row] = await rawRows<{ nextSendAt: Date | string; waiting: boolean }>(
      db,
      sql`
      WITH released AS (
        UPDATE send_states SET lease_owner = NULL, lease_until = NULL
        WHERE chain_id = ${chainId} AND lease_owner = ${owner}
        RETURNING next_send_at
      ), head AS (
        SELECT id, chain_seq FROM invoices
        WHERE chain_id = ${chainId} AND authority_status = 'error' AND next_attempt_at IS NULL AND EXISTS (SELECT 1 FROM released)
        ORDER BY chain_seq LIMIT 1
      ), moved AS (
        UPDATE invoices i SET authority_status = 'error', next_attempt_at = NULL, error_cause = 'waiting_for_earlier_record',
          authority_code = NULL, authority_message = NULL, last_error = 'waiting for the earlier record ' || head.id || ', which needs attention',
          updated_at = now()
        FROM head
        WHERE i.chain_id = ${chainId} AND i.chain_seq > head.chain_seq
          AND (i.authority_status = 'queued' OR (i.authority_status = 'error' AND i.next_attempt_at IS NOT NULL))
        RETURNING i.id, i.last_error
      ), events AS (
        INSERT INTO invoice_status_events (invoice_id, status, message) SELECT id, 'error', last_error FROM moved
      )
      SELECT next_send_at, EXISTS (
        SELECT 1 FROM ${invoices} WHERE ${invoices.chainId} = ${chainId} AND ${scheduledForSending} AND ${invoices.id} NOT IN (SELECT id FROM moved)
      ) AS waiting
      FROM released`,
    );
    return row && { nextSendAt: new Date(row.nextSendAt), waiting: row.waiting };
  },

  /**
   * Locks the chain's row (SELECT ... FOR UPDATE) for the rest of the transaction if the lease is still ours. Every
   * write of a send's results starts with it: holding the row lock, no other worker can take the lease before the commit.
   */
  async lockOwned(tx: DbOrTx, chainId: string, owner: string): Promise<SendState | undefined> {
    const [row] = await tx.select(stateColumns).from(sendStates).where(owned(chainId, owner)).for('update');
    return row;
  },

  /**
   * A message is about to go. Until its answer says otherwise, the next one may not go before the answer could still
   * arrive (`answerWithinMs`, the request timeout) plus the last known waiting time: if this sender dies mid-send,
   * whoever takes over cannot break flow control with the message the authority may have answered meanwhile.
   */
  async recordSendStart(tx: DbOrTx, chainId: string, answerWithinMs: number): Promise<void> {
    await tx
      .update(sendStates)
      .set({ lastSendAt: sql`now()`, nextSendAt: fromNow(sql`${sendStates.waitSeconds} + ${answerWithinMs / 1000}`) })
      .where(eq(sendStates.chainId, chainId));
  },

  /** An answer arrived: the next message waits TiempoEsperaEnvio from now. Call inside a fenced transaction. */
  async recordAnswerTiming(tx: DbOrTx, chainId: string, waitSeconds: number): Promise<void> {
    await tx
      .update(sendStates)
      .set({ waitSeconds, nextSendAt: fromNow(waitSeconds), consecutiveFailures: 0, failingSince: null })
      .where(eq(sendStates.chainId, chainId));
  },

  /** A whole-message rejection carries no waiting time: keep the last known one, counted from now. */
  async recordRejectionTiming(tx: DbOrTx, chainId: string): Promise<void> {
    await tx
      .update(sendStates)
      .set({ nextSendAt: fromNow(sendStates.waitSeconds), consecutiveFailures: 0, failingSince: null })
      .where(eq(sendStates.chainId, chainId));
  },

  /** Records of an answer must go again: the chain's next message waits until `at` (or later, if it already did). */
  async deferNextSend(tx: DbOrTx, chainId: string, at: Date): Promise<void> {
    await tx
      .update(sendStates)
      .set({ nextSendAt: sql`GREATEST(${sendStates.nextSendAt}, ${at.toISOString()}::timestamptz)` })
      .where(eq(sendStates.chainId, chainId));
  },

  /** A send failed without an answer: back off until retryAt. Returns since when the sends have been failing. */
  async recordFailureTiming(tx: DbOrTx, chainId: string, retryAt: Date, failedAt: Date): Promise<Date> {
    const [row] = await tx
      .update(sendStates)
      .set({
        consecutiveFailures: sql`${sendStates.consecutiveFailures} + 1`,
        nextSendAt: retryAt,
        failingSince: sql`COALESCE(${sendStates.failingSince}, ${failedAt.toISOString()}::timestamptz)`,
      })
      .where(eq(sendStates.chainId, chainId))
      .returning({ failingSince: sendStates.failingSince });
    // Never null: the COALESCE above sets it when it was.
    return row.failingSince!;
  },

  async get(db: DbOrTx, chainId: string): Promise<SendState | undefined> {
    const [row] = await db.select(stateColumns).from(sendStates).where(eq(sendStates.chainId, chainId));
    return row;
  },

  async outageSummary(db: DbOrTx, accountId: string): Promise<OutageSummary | undefined> {
    const [row] = await db
      .select({
        waitingRecords: count(invoices.id),
        taxpayers: countDistinct(chains.taxpayerId),
        since: min(sendStates.failingSince),
      })
      .from(sendStates)
      .innerJoin(chains, eq(chains.id, sendStates.chainId))
      .innerJoin(taxpayers, eq(taxpayers.id, chains.taxpayerId))
      .innerJoin(invoices, and(eq(invoices.chainId, sendStates.chainId), scheduledForSending))
      .where(and(eq(taxpayers.accountId, accountId), isNotNull(sendStates.failingSince)));
    if (!row?.since) return undefined;
    return { waitingRecords: row.waitingRecords, taxpayers: row.taxpayers, since: row.since };
  },

  async pendingByTaxpayer(db: DbOrTx, accountId: string): Promise<PendingForTaxpayer[]> {
    const rows = await db
      .select({
        taxpayerId: taxpayers.id,
        chainId: chains.id,
        nif: chains.nif,
        name: taxpayers.name,
        isProduction: chains.isProduction,
        waiting: count(),
        oldestGeneratedAt: min(invoices.generatedAt),
        nextSendAt: max(sendStates.nextSendAt),
        consecutiveFailures: sql<number>`coalesce(max(${sendStates.consecutiveFailures}), 0)::int`,
      })
      .from(invoices)
      .innerJoin(chains, eq(chains.id, invoices.chainId))
      .innerJoin(taxpayers, eq(taxpayers.id, chains.taxpayerId))
      .leftJoin(sendStates, eq(sendStates.chainId, chains.id))
      .where(and(eq(invoices.accountId, accountId), inArray(invoices.authorityStatus, [...WAITING_STATUSES])))
      .groupBy(taxpayers.id, chains.id)
      .orderBy(taxpayers.name, chains.isProduction);
    return rows.map((r) => ({ ...r, oldestGeneratedAt: r.oldestGeneratedAt ?? new Date(0) }));
  },

  /**
   * One page, in chain id order after `afterChainId`, of the chains with records the workers still have to send
   * (waiting, or in `error` with a next attempt): those that must have a live job.
   */
  async chainsToSend(db: DbOrTx, afterChainId: string, limit: number): Promise<string[]> {
    const rows = await db
      .selectDistinct({ chainId: invoices.chainId })
      .from(invoices)
      .where(and(scheduledForSending, gt(invoices.chainId, afterChainId)))
      .orderBy(asc(invoices.chainId))
      .limit(limit);
    return rows.map((r) => r.chainId);
  },
};

/** What the sender needs of a taxpayer: who it is and the (encrypted) client certificate, if it has one. */
export interface SenderTaxpayer {
  id: string;
  nif: string;
  name: string;
  /** AES-256-GCM envelopes; both null in social-collaborator mode. */
  certificateP12: Buffer | null;
  certificatePassword: Buffer | null;
  /** Changes whenever the certificate does: part of the TLS agent cache key. */
  updatedAt: Date;
}

const senderColumns = {
  id: taxpayers.id,
  nif: taxpayers.nif,
  name: taxpayers.name,
  certificateP12: taxpayers.certificateP12,
  certificatePassword: taxpayers.certificatePassword,
  updatedAt: taxpayers.updatedAt,
};

export const senderTaxpayerStore = {
  /** The taxpayer a chain belongs to: its certificate signs every message of the chain. */
  async forChain(db: DbOrTx, chainId: string): Promise<SenderTaxpayer | undefined> {
    const [row] = await db
      .select(senderColumns)
      .from(chains)
      .innerJoin(taxpayers, eq(taxpayers.id, chains.taxpayerId))
      .where(eq(chains.id, chainId));
    return row;
  },

  /** A taxpayer by id: whose certificate signs its NO VERI*FACTU records as they are appended. */
  async byId(db: DbOrTx, taxpayerId: string): Promise<SenderTaxpayer | undefined> {
    const [row] = await db.select(senderColumns).from(taxpayers).where(eq(taxpayers.id, taxpayerId));
    return row;
  },

  /** A taxpayer of the account, to ask the authority under its certificate; undefined when it is not the account's. */
  async ofAccount(db: DbOrTx, accountId: string, taxpayerId: string): Promise<SenderTaxpayer | undefined> {
    const [row] = await db
      .select(senderColumns)
      .from(taxpayers)
      .where(and(eq(taxpayers.accountId, accountId), eq(taxpayers.id, taxpayerId)));
    return row;
  },
};

export interface SenderStop {
  certificateFingerprint: string;
  certificateSubject: string;
  code: number;
  message: string;
  stoppedAt: Date;
}

/** Certificates whose access the authority suspended (4141): no send goes under one until an operator resumes it. */
export const senderStopStore = {
  /** Stops every send under the certificate; a second stop of the same certificate keeps the first. */
  async stop(tx: DbOrTx, stop: Omit<SenderStop, 'stoppedAt'>): Promise<void> {
    await tx.insert(senderStops).values(stop).onConflictDoNothing({ target: senderStops.certificateFingerprint });
  },

  async find(db: DbOrTx, fingerprint: string): Promise<SenderStop | undefined> {
    const [row] = await db.select().from(senderStops).where(eq(senderStops.certificateFingerprint, fingerprint));
    return row;
  },

  list(db: DbOrTx): Promise<SenderStop[]> {
    return db.select().from(senderStops).orderBy(asc(senderStops.stoppedAt));
  },

  /**
   * The operator's resume: the stop goes and the records it held go back in the queue (the reconciler gives their
   * chains a job). Undefined when the certificate was not stopped. Run in a transaction.
   */
  async resume(tx: DbOrTx, fingerprint: string): Promise<ResumedRecord[] | undefined> {
    const deleted = await tx
      .delete(senderStops)
      .where(eq(senderStops.certificateFingerprint, fingerprint))
      .returning({ fingerprint: senderStops.certificateFingerprint });
    if (deleted.length === 0) return undefined;
    return submissionResumeStore.resumeAfterSenderStop(tx);
  },
};
