import { sql } from 'drizzle-orm';
import { WAITING_STATUSES } from '@vf/core';
import type { DbOrTx } from '../client';

/** A record the workers still send on their own (statuses module: isScheduledForSending), as SQL on alias `i`. */
const scheduledRecord = sql`(i.authority_status = ANY(${sql.param([...WAITING_STATUSES])}::text[]) OR (i.authority_status = 'error' AND i.next_attempt_at IS NOT NULL))`;

/** The authority lets a message go early, whatever the waiting time, once this many records are waiting. */
export const FULL_BATCH = 1000;

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

export type LeaseAttempt =
  | { acquired: true; state: SendState }
  /** retryAt: the earliest moment this caller could send: lease expiry (held by another) and flow control both passed. */
  | { acquired: false; reason: 'leased' | 'flow_control'; retryAt: Date };

interface SendStateRow {
  chain_id: string;
  next_send_at: Date;
  wait_seconds: number;
  last_send_at: Date | null;
  consecutive_failures: number;
  failing_since: Date | null;
  lease_owner: string | null;
  lease_until: Date | null;
}

function toState(r: SendStateRow): SendState {
  return {
    chainId: r.chain_id,
    nextSendAt: new Date(r.next_send_at),
    waitSeconds: r.wait_seconds,
    lastSendAt: r.last_send_at ? new Date(r.last_send_at) : null,
    consecutiveFailures: r.consecutive_failures,
    failingSince: r.failing_since ? new Date(r.failing_since) : null,
    leaseOwner: r.lease_owner,
    leaseUntil: r.lease_until ? new Date(r.lease_until) : null,
  };
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

// A send may go when the waiting time has elapsed, or when a full message is waiting — but never early while a
// failure backoff is running (consecutive_failures > 0), or a large backlog would turn retries into a storm.
const sendAllowed = sql`(s.next_send_at <= now() OR (s.consecutive_failures = 0 AND (
  SELECT count(*) FROM (
    SELECT 1 FROM invoices i
    WHERE i.chain_id = s.chain_id AND ${scheduledRecord}
    LIMIT ${FULL_BATCH}
  ) w) >= ${FULL_BATCH}))`;

/**
 * Tries to become the chain's single sender. One atomic UPDATE: it succeeds only if the lease is free or
 * expired AND flow control allows a send now. The owner token must be unique per acquisition: every later write
 * is fenced on it, so a sender whose lease was taken over can no longer record anything.
 */
export async function acquireSendLease(db: DbOrTx, chainId: string, owner: string, leaseMs: number): Promise<LeaseAttempt> {
  await db.execute(sql`INSERT INTO send_states (chain_id) VALUES (${chainId}) ON CONFLICT (chain_id) DO NOTHING`);
  const taken = rowsOf<SendStateRow>(
    await db.execute(sql`
      UPDATE send_states s
      SET lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${leaseMs / 1000})
      WHERE s.chain_id = ${chainId}
        AND (s.lease_owner IS NULL OR s.lease_until IS NULL OR s.lease_until <= now())
        AND ${sendAllowed}
      RETURNING s.*`),
  );
  if (taken.length > 0) return { acquired: true, state: toState(taken[0]) };

  const current = rowsOf<SendStateRow & { leased: boolean }>(
    await db.execute(sql`
      SELECT s.*, (s.lease_owner IS NOT NULL AND s.lease_until > now()) AS leased
      FROM send_states s WHERE s.chain_id = ${chainId}`),
  )[0];
  // While another sender works, nobody else may send before the later of its lease expiry and the flow-control time.
  if (current.leased)
    return {
      acquired: false,
      reason: 'leased',
      retryAt: new Date(Math.max(new Date(current.lease_until!).getTime(), new Date(current.next_send_at).getTime())),
    };
  return { acquired: false, reason: 'flow_control', retryAt: new Date(current.next_send_at) };
}

/** Heartbeat while a send is in flight. False means the lease was lost (expired and taken over). */
export async function renewSendLease(db: DbOrTx, chainId: string, owner: string, leaseMs: number): Promise<boolean> {
  const r = await db.execute(sql`
    UPDATE send_states SET lease_until = now() + make_interval(secs => ${leaseMs / 1000})
    WHERE chain_id = ${chainId} AND lease_owner = ${owner}
    RETURNING chain_id`);
  return rowsOf(r).length > 0;
}

/**
 * Keeps the lease for another message only if flow control allows one right now (a full message is waiting, or the
 * waiting time is already over). False: the caller must release and wait.
 */
export async function continueSendLease(db: DbOrTx, chainId: string, owner: string, leaseMs: number): Promise<boolean> {
  const r = await db.execute(sql`
    UPDATE send_states s SET lease_until = now() + make_interval(secs => ${leaseMs / 1000})
    WHERE s.chain_id = ${chainId} AND s.lease_owner = ${owner} AND ${sendAllowed}
    RETURNING s.chain_id`);
  return rowsOf(r).length > 0;
}

export async function releaseSendLease(db: DbOrTx, chainId: string, owner: string): Promise<void> {
  await db.execute(sql`
    UPDATE send_states SET lease_owner = NULL, lease_until = NULL
    WHERE chain_id = ${chainId} AND lease_owner = ${owner}`);
}

/**
 * Locks the chain's send_states row for the rest of the transaction if the lease is still ours. Every write of a
 * send's results starts with it: holding the row lock, no other worker can take the lease before the commit.
 */
export async function lockOwnedSendState(tx: DbOrTx, chainId: string, owner: string): Promise<SendState | undefined> {
  const r = rowsOf<SendStateRow>(
    await tx.execute(sql`SELECT * FROM send_states WHERE chain_id = ${chainId} AND lease_owner = ${owner} FOR UPDATE`),
  );
  return r.length > 0 ? toState(r[0]) : undefined;
}

/**
 * A message is about to go. Until its answer says otherwise, the next one may not go before the answer could still
 * arrive (`answerWithinMs`, the request timeout) plus the last known waiting time: if this sender dies mid-send,
 * whoever takes over cannot break flow control with the message the authority may have answered meanwhile.
 */
export async function recordSendStart(tx: DbOrTx, chainId: string, answerWithinMs: number): Promise<void> {
  await tx.execute(sql`
    UPDATE send_states
    SET last_send_at = now(), next_send_at = now() + make_interval(secs => wait_seconds + ${answerWithinMs / 1000})
    WHERE chain_id = ${chainId}`);
}

/** An answer arrived: the next message waits TiempoEsperaEnvio from now. Call inside a fenced transaction. */
export async function recordAnswerTiming(tx: DbOrTx, chainId: string, waitSeconds: number): Promise<void> {
  await tx.execute(sql`
    UPDATE send_states
    SET wait_seconds = ${waitSeconds}, next_send_at = now() + make_interval(secs => ${waitSeconds}), consecutive_failures = 0, failing_since = NULL
    WHERE chain_id = ${chainId}`);
}

/** A whole-message rejection carries no waiting time: keep the last known one, counted from now. */
export async function recordRejectionTiming(tx: DbOrTx, chainId: string): Promise<void> {
  await tx.execute(sql`
    UPDATE send_states SET next_send_at = now() + make_interval(secs => wait_seconds), consecutive_failures = 0, failing_since = NULL
    WHERE chain_id = ${chainId}`);
}

/** A send failed without an answer: back off until retryAt. Returns since when the sends have been failing. */
export async function recordFailureTiming(tx: DbOrTx, chainId: string, retryAt: Date, failedAt: Date): Promise<Date> {
  const [row] = rowsOf<{ failing_since: Date }>(
    await tx.execute(sql`
      UPDATE send_states SET consecutive_failures = consecutive_failures + 1, next_send_at = ${retryAt.toISOString()}::timestamptz,
        failing_since = COALESCE(failing_since, ${failedAt.toISOString()}::timestamptz)
      WHERE chain_id = ${chainId}
      RETURNING failing_since`),
  );
  return new Date(row.failing_since);
}

export async function getSendState(db: DbOrTx, chainId: string): Promise<SendState | undefined> {
  const r = rowsOf<SendStateRow>(await db.execute(sql`SELECT * FROM send_states WHERE chain_id = ${chainId}`));
  return r.length > 0 ? toState(r[0]) : undefined;
}

/** Records held back by an outage in one account: how many, and since when the earliest failing chain fails. */
export interface OutageSummary {
  waitingRecords: number;
  /** Taxpayers with at least one failing chain. */
  taxpayers: number;
  since: Date;
}

export async function outageSummary(db: DbOrTx, accountId: string): Promise<OutageSummary | undefined> {
  const [row] = rowsOf<{ waiting: string; taxpayers: string; since: Date | null }>(
    await db.execute(sql`
      SELECT count(i.id) AS waiting, count(DISTINCT c.taxpayer_id) AS taxpayers, min(s.failing_since) AS since
      FROM send_states s
      JOIN chains c ON c.id = s.chain_id
      JOIN taxpayers t ON t.id = c.taxpayer_id
      JOIN invoices i ON i.chain_id = s.chain_id AND ${scheduledRecord}
      WHERE t.account_id = ${accountId} AND s.failing_since IS NOT NULL`),
  );
  if (!row?.since) return undefined;
  return { waitingRecords: Number(row.waiting), taxpayers: Number(row.taxpayers), since: new Date(row.since) };
}
