import { and, asc, eq, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { remissionMessages, remissions, type RemissionProblemJson } from '../schema';

/** What the remission's sender needs to know of it while it holds the lease. */
export interface RemissionForSending {
  id: string;
  taxpayerId: string;
  chainId: string;
  isProduction: boolean;
  reference: string;
  consecutiveFailures: number;
}

/** The next message of a remission not answered yet: its records in order, and whether it is the last. */
export interface PendingRemissionMessage {
  seq: number;
  invoiceIds: string[];
  isLast: boolean;
  /** Attempts before this one: more than 0 means it may have reached the authority already. */
  attempts: number;
}

export type RemissionLeaseAttempt =
  | { acquired: true; remission: RemissionForSending }
  | { acquired: false; finished: true }
  | { acquired: false; finished: false; retryAt: Date };

/** A message the authority answered: its counts and the records it did not take as they were. */
export interface RemissionAnswer {
  csv: string | null;
  sendState: string;
  accepted: number;
  acceptedWithErrors: number;
  duplicates: number;
  rejected: number;
  problems: RemissionProblemJson[];
  responseXml: string;
  waitSeconds: number;
}

const fromNow = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;
const owned = (id: string, owner: string) => and(eq(remissions.id, id), eq(remissions.leaseOwner, owner));
const leaseFree = or(isNull(remissions.leaseOwner), isNull(remissions.leaseUntil), lte(remissions.leaseUntil, sql`now()`));

/**
 * The sender of a remission: one at a time across the worker fleet (a lease on the remission's row, as a chain's in
 * send_states, decision 0003), its writes fenced on that lease, its flow control on the row.
 */
export const remissionSendStore = {
  /** Becomes the remission's sender when no live lease holds it and its flow control allows a message now. */
  async acquireLease(db: DbOrTx, id: string, owner: string, leaseMs: number): Promise<RemissionLeaseAttempt> {
    const [taken] = await db
      .update(remissions)
      .set({ leaseOwner: owner, leaseUntil: fromNow(leaseMs / 1000) })
      .where(and(eq(remissions.id, id), eq(remissions.status, 'sending'), leaseFree, lte(remissions.nextSendAt, sql`now()`)))
      .returning({
        id: remissions.id,
        taxpayerId: remissions.taxpayerId,
        chainId: remissions.chainId,
        isProduction: remissions.isProduction,
        reference: remissions.requirementReference,
        consecutiveFailures: remissions.consecutiveFailures,
      });
    if (taken) return { acquired: true, remission: taken };
    const [current] = await db
      .select({ status: remissions.status, nextSendAt: remissions.nextSendAt, leaseUntil: remissions.leaseUntil })
      .from(remissions)
      .where(eq(remissions.id, id));
    if (!current || current.status !== 'sending') return { acquired: false, finished: true };
    const leased = current.leaseUntil && current.leaseUntil.getTime() > Date.now() ? current.leaseUntil.getTime() : 0;
    return { acquired: false, finished: false, retryAt: new Date(Math.max(leased, current.nextSendAt.getTime())) };
  },

  async renewLease(db: DbOrTx, id: string, owner: string, leaseMs: number): Promise<boolean> {
    const rows = await db
      .update(remissions)
      .set({ leaseUntil: fromNow(leaseMs / 1000) })
      .where(owned(id, owner))
      .returning({ id: remissions.id });
    return rows.length > 0;
  },

  /** Lets the lease go: whether the remission still sends and when it may next; undefined when the lease was lost. */
  async releaseLease(db: DbOrTx, id: string, owner: string): Promise<{ sending: boolean; nextSendAt: Date } | undefined> {
    const [row] = await db
      .update(remissions)
      .set({ leaseOwner: null, leaseUntil: null })
      .where(owned(id, owner))
      .returning({ status: remissions.status, nextSendAt: remissions.nextSendAt });
    return row && { sending: row.status === 'sending', nextSendAt: row.nextSendAt };
  },

  /** Locks the remission's row in the caller's transaction, only while `owner` holds its lease. */
  async lockOwned(tx: DbOrTx, id: string, owner: string): Promise<boolean> {
    const rows = await tx.select({ id: remissions.id }).from(remissions).where(owned(id, owner)).for('update');
    return rows.length > 0;
  },

  /** The first message not answered yet, in order; undefined when every message was answered. */
  async nextMessage(db: DbOrTx, id: string): Promise<PendingRemissionMessage | undefined> {
    const [message] = await db
      .select({
        seq: remissionMessages.seq,
        invoiceIds: remissionMessages.invoiceIds,
        isLast: remissionMessages.isLast,
        attempts: remissionMessages.attempts,
      })
      .from(remissionMessages)
      .where(and(eq(remissionMessages.remissionId, id), ne(remissionMessages.status, 'answered')))
      .orderBy(asc(remissionMessages.seq))
      .limit(1);
    return message;
  },

  /**
   * Marks a message as going (one more attempt), before it goes: a sender that dies now leaves it in flight, and
   * whoever takes over sends it again, the same records under the same header. The next send waits past the answer's
   * deadline, so that nobody sends early behind a message whose answer may still come.
   */
  async open(tx: DbOrTx, id: string, seq: number, requestXml: string, deadlineSeconds: number): Promise<void> {
    await tx
      .update(remissionMessages)
      .set({ status: 'in_flight', attempts: sql`${remissionMessages.attempts} + 1`, sentAt: sql`now()`, requestXml })
      .where(and(eq(remissionMessages.remissionId, id), eq(remissionMessages.seq, seq)));
    await tx
      .update(remissions)
      .set({ nextSendAt: fromNow(deadlineSeconds) })
      .where(eq(remissions.id, id));
  },

  /** The message answered; the last one completes the remission. The next waits for the authority's TiempoEsperaEnvio. */
  async answered(tx: DbOrTx, id: string, seq: number, answer: RemissionAnswer, isLast: boolean): Promise<void> {
    const { waitSeconds, ...counts } = answer;
    await tx
      .update(remissionMessages)
      .set({ status: 'answered', ...counts, lastError: null, answeredAt: sql`now()` })
      .where(and(eq(remissionMessages.remissionId, id), eq(remissionMessages.seq, seq)));
    await tx
      .update(remissions)
      .set({
        nextSendAt: fromNow(waitSeconds),
        consecutiveFailures: 0,
        ...(isLast ? { status: 'completed' as const, finishedAt: sql`now()` } : {}),
      })
      .where(eq(remissions.id, id));
  },

  /** Nothing usable came back: the same message goes again after `retrySeconds`. */
  async failedAttempt(tx: DbOrTx, id: string, seq: number, error: string, retrySeconds: number): Promise<void> {
    await tx
      .update(remissionMessages)
      .set({ status: 'waiting', lastError: error })
      .where(and(eq(remissionMessages.remissionId, id), eq(remissionMessages.seq, seq)));
    await tx
      .update(remissions)
      .set({ nextSendAt: fromNow(retrySeconds), consecutiveFailures: sql`${remissions.consecutiveFailures} + 1` })
      .where(eq(remissions.id, id));
  },

  /** The authority refused the message for a reason sending again cannot cure (its header): the remission stops. */
  async refused(tx: DbOrTx, id: string, seq: number, refusal: { code: number | null; message: string; responseXml: string }) {
    await tx
      .update(remissionMessages)
      .set({ status: 'refused', lastError: refusal.message, responseXml: refusal.responseXml, answeredAt: sql`now()` })
      .where(and(eq(remissionMessages.remissionId, id), eq(remissionMessages.seq, seq)));
    await tx
      .update(remissions)
      .set({ status: 'failed', errorCode: refusal.code, errorMessage: refusal.message, finishedAt: sql`now()` })
      .where(eq(remissions.id, id));
  },
};
