import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { MAX_RECORDS_PER_MESSAGE } from '@vf/core';
import type { Db, DbOrTx } from '../client';
import { chains, remissionMessages, remissions, taxpayers, type RemissionProblemJson, type RemissionStatus } from '../schema';
import type { SealedAnswer } from './chain-append-write';
import { idempotencyStore } from './idempotency-store';
import { rawRows } from './raw-rows';
import { StoreError, translatingDbErrors } from './store-error';

/** What starts a remission: the requerimiento's reference and the period of invoice dates it asks for (inclusive). */
export interface RemissionRequest {
  accountId: string;
  taxpayerId: string;
  reference: string;
  from: string;
  to: string;
}

/** Why a remission could not start; nothing was written. */
export type RemissionRefusal =
  | { refused: 'taxpayer_not_found' }
  | { refused: 'no_records' }
  /** Records of the period have no signed bytes kept: they cannot be sent unchanged and signed. */
  | { refused: 'records_not_signed'; count: number }
  /** Another remission of the taxpayer's chain is still sending. */
  | { refused: 'remission_in_progress' };

export interface RemissionMessageView {
  seq: number;
  recordCount: number;
  isLast: boolean;
  status: 'waiting' | 'in_flight' | 'answered' | 'refused';
  attempts: number;
  csv: string | null;
  sendState: string | null;
  accepted: number | null;
  acceptedWithErrors: number | null;
  duplicates: number | null;
  rejected: number | null;
  problems: RemissionProblemJson[];
  lastError: string | null;
  sentAt: Date | null;
  answeredAt: Date | null;
}

export interface RemissionView {
  id: string;
  taxpayerId: string;
  isProduction: boolean;
  reference: string;
  from: string;
  to: string;
  status: RemissionStatus;
  recordCount: number;
  messageCount: number;
  nextSendAt: Date;
  errorCode: number | null;
  errorMessage: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  messages: RemissionMessageView[];
}

const remissionColumns = {
  id: remissions.id,
  taxpayerId: remissions.taxpayerId,
  isProduction: remissions.isProduction,
  reference: remissions.requirementReference,
  from: remissions.periodFrom,
  to: remissions.periodTo,
  status: remissions.status,
  recordCount: remissions.recordCount,
  messageCount: remissions.messageCount,
  nextSendAt: remissions.nextSendAt,
  errorCode: remissions.errorCode,
  errorMessage: remissions.errorMessage,
  createdAt: remissions.createdAt,
  finishedAt: remissions.finishedAt,
};

const messageColumns = {
  seq: remissionMessages.seq,
  recordCount: sql<number>`cardinality(${remissionMessages.invoiceIds})`.mapWith(Number),
  isLast: remissionMessages.isLast,
  status: remissionMessages.status,
  attempts: remissionMessages.attempts,
  csv: remissionMessages.csv,
  sendState: remissionMessages.sendState,
  accepted: remissionMessages.accepted,
  acceptedWithErrors: remissionMessages.acceptedWithErrors,
  duplicates: remissionMessages.duplicates,
  rejected: remissionMessages.rejected,
  problems: remissionMessages.problems,
  lastError: remissionMessages.lastError,
  sentAt: remissionMessages.sentAt,
  answeredAt: remissionMessages.answeredAt,
};

/** The records of a chain whose invoice date falls in the period, in chain order, and whether each has signed bytes. */
async function periodRecords(tx: DbOrTx, chainId: string, from: string, to: string) {
  return rawRows<{ id: string; signed: boolean }>(
    tx,
    sql`SELECT i.id, EXISTS (SELECT 1 FROM signed_records s WHERE s.invoice_id = i.id) AS signed
          FROM invoices i
         WHERE i.chain_id = ${chainId} AND i.invoice_date BETWEEN ${from}::date AND ${to}::date
         ORDER BY i.chain_seq`,
  );
}

async function insertPlanned(tx: DbOrTx, request: RemissionRequest, chain: { id: string; isProduction: boolean }, ids: string[]) {
  const messageCount = Math.ceil(ids.length / MAX_RECORDS_PER_MESSAGE);
  const [created] = await tx
    .insert(remissions)
    .values({
      accountId: request.accountId,
      taxpayerId: request.taxpayerId,
      chainId: chain.id,
      isProduction: chain.isProduction,
      requirementReference: request.reference,
      periodFrom: request.from,
      periodTo: request.to,
      recordCount: ids.length,
      messageCount,
    })
    .returning({ id: remissions.id });
  const messages = Array.from({ length: messageCount }, (_, i) => ({
    remissionId: created.id,
    seq: i + 1,
    invoiceIds: ids.slice(i * MAX_RECORDS_PER_MESSAGE, (i + 1) * MAX_RECORDS_PER_MESSAGE),
    isLast: i === messageCount - 1,
  }));
  await tx.insert(remissionMessages).values(messages);
  return created.id;
}

export const remissionStore = {
  /**
   * Starts a remission: the taxpayer's chain in its current environment, the records of the period in chain order cut
   * into messages of up to 1,000, all in one transaction. Refuses, writing nothing, when a record of the period has no
   * signed bytes kept or another remission of the chain is still sending. `answer`: with an Idempotency-Key, the
   * answer to the remission started, kept in that transaction.
   */
  async start(
    db: Db,
    request: RemissionRequest,
    answer?: (started: RemissionView) => SealedAnswer,
  ): Promise<RemissionView | RemissionRefusal> {
    return db.transaction(async (tx): Promise<RemissionView | RemissionRefusal> => {
      const [chain] = await tx
        .select({ id: chains.id, isProduction: chains.isProduction })
        .from(taxpayers)
        // The authority asks for the records it received: the real chain's, never the scenario chain's.
        .innerJoin(
          chains,
          and(eq(chains.taxpayerId, taxpayers.id), eq(chains.isProduction, taxpayers.isProduction), eq(chains.scenario, false)),
        )
        .where(and(eq(taxpayers.id, request.taxpayerId), eq(taxpayers.accountId, request.accountId)));
      if (!chain) {
        const [taxpayer] = await tx
          .select({ id: taxpayers.id })
          .from(taxpayers)
          .where(and(eq(taxpayers.id, request.taxpayerId), eq(taxpayers.accountId, request.accountId)));
        return taxpayer ? { refused: 'no_records' } : { refused: 'taxpayer_not_found' };
      }
      const records = await periodRecords(tx, chain.id, request.from, request.to);
      if (records.length === 0) return { refused: 'no_records' };
      const unsigned = records.filter((r) => !r.signed).length;
      if (unsigned > 0) return { refused: 'records_not_signed', count: unsigned };
      const id = await insertPlanned(
        tx,
        request,
        chain,
        records.map((r) => r.id),
      );
      const started = (await remissionStore.get(tx, request.accountId, request.taxpayerId, id))!;
      if (answer) await idempotencyStore.keep(tx, answer(started));
      return started;
    });
  },

  /** start, with a remission already sending for the chain answered as a refusal. */
  async startOnce(
    db: Db,
    request: RemissionRequest,
    answer?: (started: RemissionView) => SealedAnswer,
  ): Promise<RemissionView | RemissionRefusal> {
    try {
      return await translatingDbErrors(remissionStore.start(db, request, answer));
    } catch (err) {
      if (err instanceof StoreError && err.constraint === 'remissions_one_sending_per_chain') return { refused: 'remission_in_progress' };
      throw err;
    }
  },

  /** One remission of the account's taxpayer, with its messages in order. */
  async get(db: DbOrTx, accountId: string, taxpayerId: string, id: string): Promise<RemissionView | undefined> {
    const [remission] = await db
      .select(remissionColumns)
      .from(remissions)
      .where(and(eq(remissions.id, id), eq(remissions.taxpayerId, taxpayerId), eq(remissions.accountId, accountId)));
    if (!remission) return undefined;
    const messages = await db
      .select(messageColumns)
      .from(remissionMessages)
      .where(eq(remissionMessages.remissionId, id))
      .orderBy(asc(remissionMessages.seq));
    return { ...remission, messages };
  },

  /** The taxpayer's remissions, newest first, without their messages. */
  async list(db: DbOrTx, accountId: string, taxpayerId: string): Promise<Omit<RemissionView, 'messages'>[]> {
    return db
      .select(remissionColumns)
      .from(remissions)
      .where(and(eq(remissions.taxpayerId, taxpayerId), eq(remissions.accountId, accountId)))
      .orderBy(desc(remissions.createdAt))
      .limit(100);
  },

  /** Remissions still sending: each needs a live job (the reconciler gives it one after a Redis flush). */
  async sending(db: DbOrTx): Promise<string[]> {
    const rows = await db.select({ id: remissions.id }).from(remissions).where(eq(remissions.status, 'sending'));
    return rows.map((r) => r.id);
  },
};
