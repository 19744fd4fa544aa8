import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, notExists, or, sql } from 'drizzle-orm';
import { alias, QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../client';
import {
  invoices,
  invoiceStatusEvents,
  webhookDeliveries,
  webhookEndpoints,
  webhookOutbox,
  type AuthorityStatus,
  type RecordType,
} from '../schema';

/** A status change waiting in the outbox, with what its events need to say. */
export interface OutboxChange {
  outboxId: number;
  accountId: string | null;
  /** The public invoice id (its first record's), shared by its corrections and cancellations: the ordering line. */
  invoiceId: string | null;
  /** The chain record whose status changed. */
  recordId: string | null;
  recordType: RecordType;
  invoiceNumber: string;
  invoiceDate: string;
  taxpayerId: string;
  issuerNif: string;
  status: AuthorityStatus;
  previousStatus: AuthorityStatus | null;
  code: number | null;
  message: string | null;
  at: Date;
}

export interface OutboxEndpoint {
  id: string;
  accountId: string;
  events: string[];
}

export interface PlannedDelivery {
  endpointId: string;
  invoiceId: string | null;
  eventType: string;
  payload: string;
}

export interface ClaimedDelivery {
  id: string;
  url: string;
  secret: Buffer;
  payload: string;
  attempts: number;
}

export interface AttemptResult {
  ok: boolean;
  responseCode: number | null;
  error: string | null;
}

const RELAY_LOCK = 'webhook_outbox_relay';

const qb = new QueryBuilder();
const earlier = alias(webhookDeliveries, 'p');

/** First of its invoice's line to its endpoint: a later event of an invoice waits for the earlier one. */
const firstOfItsLine = or(
  isNull(webhookDeliveries.invoiceId),
  notExists(
    qb
      .select({ one: sql`1` })
      .from(earlier)
      .where(
        and(
          eq(earlier.endpointId, webhookDeliveries.endpointId),
          eq(earlier.invoiceId, webhookDeliveries.invoiceId),
          eq(earlier.status, 'pending'),
          lt(earlier.seq, webhookDeliveries.seq),
        ),
      ),
  ),
);

/** Due and not held by a worker making an attempt. */
const free = and(
  eq(webhookDeliveries.status, 'pending'),
  lte(webhookDeliveries.nextAttemptAt, sql`now()`),
  or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, sql`now()`)),
);

/**
 * A record's first status, which no event row keeps (decision 0065): `kept` for a record generated in NO VERI*FACTU
 * (a status it never leaves), `queued` otherwise.
 */
const firstStatus = sql<AuthorityStatus>`(case when ${invoices.authorityStatus} = 'kept' then 'kept' else 'queued' end)`;

/** The status an event followed on its record: its previous event's, or the record's first. None for the first. */
const before = alias(invoiceStatusEvents, 'prev_event');
const previousStatus = sql<AuthorityStatus | null>`(case when ${invoiceStatusEvents.id} is null then null else coalesce((${qb
  .select({ status: before.status })
  .from(before)
  .where(and(eq(before.invoiceId, invoiceStatusEvents.invoiceId), lt(before.id, invoiceStatusEvents.id)))
  .orderBy(desc(before.id))
  .limit(1)}), ${firstStatus}) end)`;

/** The workers' side of webhooks: the outbox relay and the delivery attempts, all fenced in PostgreSQL. */
export const webhookDispatchStore = {
  /**
   * Turns outbox rows into deliveries and removes them, in one transaction under an advisory lock: one relay at a
   * time, rows in outbox order, so an invoice's deliveries are numbered in the order its changes happened.
   */
  async relay(
    db: Db,
    plan: (changes: OutboxChange[], endpoints: OutboxEndpoint[]) => PlannedDelivery[],
    limit = 500,
  ): Promise<{ outboxRows: number; deliveryIds: string[] }> {
    // Most sweeps find nothing: no transaction or lock for them.
    if ((await db.select({ id: webhookOutbox.id }).from(webhookOutbox).limit(1)).length === 0) return { outboxRows: 0, deliveryIds: [] };
    return db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${RELAY_LOCK}))`);
      // Left joins: an outbox row whose event or record is gone (its account was deleted) is removed all the same.
      const rows = await tx
        .select({
          outboxId: webhookOutbox.id,
          accountId: invoices.accountId,
          invoiceId: invoices.invoiceId,
          recordId: invoices.id,
          recordType: invoices.recordType,
          invoiceNumber: invoices.invoiceNumber,
          invoiceDate: invoices.invoiceDate,
          taxpayerId: invoices.taxpayerId,
          issuerNif: invoices.issuerNif,
          // A row naming a record and no event is its first status, at the record's creation.
          status: sql<AuthorityStatus | null>`(case when ${webhookOutbox.statusEventId} is null then ${firstStatus} else ${invoiceStatusEvents.status} end)`,
          previousStatus,
          code: invoiceStatusEvents.code,
          message: invoiceStatusEvents.message,
          at: sql<Date>`coalesce(${invoiceStatusEvents.at}, ${invoices.createdAt})`.mapWith(invoices.createdAt),
        })
        .from(webhookOutbox)
        // Every row names its record; an event's row its event too, found by the events' key (decision 0069). A row
        // from before migration 0036 that names an event alone has had its record filled in by the migration.
        .leftJoin(
          invoiceStatusEvents,
          and(eq(invoiceStatusEvents.invoiceId, webhookOutbox.recordId), eq(invoiceStatusEvents.id, webhookOutbox.statusEventId)),
        )
        .leftJoin(invoices, eq(invoices.id, webhookOutbox.recordId))
        .orderBy(asc(webhookOutbox.id))
        .limit(limit);
      if (rows.length === 0) return { outboxRows: 0, deliveryIds: [] };
      // Such a row has nothing to tell anyone: it is only removed.
      const changes = rows.filter((r): r is OutboxChange => r.status !== null && r.recordId !== null);
      const accounts = [...new Set(changes.map((c) => c.accountId).filter((a): a is string => a !== null))];
      const endpoints =
        accounts.length === 0
          ? []
          : await tx
              .select({ id: webhookEndpoints.id, accountId: webhookEndpoints.accountId, events: webhookEndpoints.events })
              .from(webhookEndpoints)
              .where(inArray(webhookEndpoints.accountId, accounts));
      const ids: string[] = [];
      // One by one, so seq follows the plan's order.
      for (const d of plan(changes, endpoints)) {
        const [inserted] = await tx
          .insert(webhookDeliveries)
          .values({ endpointId: d.endpointId, invoiceId: d.invoiceId, eventType: d.eventType, payload: d.payload })
          .returning({ id: webhookDeliveries.id });
        ids.push(inserted.id);
      }
      await tx.delete(webhookOutbox).where(
        inArray(
          webhookOutbox.id,
          rows.map((r) => r.outboxId),
        ),
      );
      return { outboxRows: rows.length, deliveryIds: ids };
    });
  },

  /**
   * Takes one delivery for an attempt: pending, due, not held by another worker, and first of its invoice's line
   * to that endpoint (a later event of an invoice waits for the earlier one).
   */
  async claim(db: DbOrTx, id: string, holdMs: number): Promise<ClaimedDelivery | undefined> {
    const [row] = await db
      .update(webhookDeliveries)
      .set({ lockedUntil: sql`now() + make_interval(secs => ${holdMs / 1000})` })
      .from(webhookEndpoints)
      .where(and(eq(webhookDeliveries.id, id), eq(webhookEndpoints.id, webhookDeliveries.endpointId), free, firstOfItsLine))
      .returning({
        id: webhookDeliveries.id,
        url: webhookEndpoints.url,
        secret: webhookEndpoints.secret,
        payload: webhookDeliveries.payload,
        attempts: webhookDeliveries.attempts,
      });
    return row;
  },

  /**
   * Records an attempt. A failure is retried after retryDelaysMs[attempts - 1]; past the last delay the delivery
   * is given up (`failed`). Returns the next attempt time, or null once the delivery is settled.
   */
  async recordAttempt(db: DbOrTx, id: string, result: AttemptResult, retryDelaysMs: readonly number[]): Promise<Date | null> {
    // Every expression reads the row as it was before this attempt.
    const attempts = webhookDeliveries.attempts;
    const givenUp = sql`${attempts} + 1 > ${retryDelaysMs.length}`;
    const [row] = await db
      .update(webhookDeliveries)
      .set({
        attempts: sql`${attempts} + 1`,
        lastResponseCode: result.responseCode,
        lastError: result.error,
        lockedUntil: null,
        status: sql`CASE WHEN ${result.ok} THEN 'delivered' WHEN ${givenUp} THEN 'failed' ELSE 'pending' END`,
        deliveredAt: sql`CASE WHEN ${result.ok} THEN now() ELSE NULL END`,
        nextAttemptAt: sql`CASE WHEN ${result.ok} OR ${givenUp} THEN ${webhookDeliveries.nextAttemptAt}
          ELSE now() + make_interval(secs => (${`{${retryDelaysMs.join(',')}}`}::int[])[${attempts} + 1] / 1000.0) END`,
      })
      .where(eq(webhookDeliveries.id, id))
      .returning({ status: webhookDeliveries.status, nextAttemptAt: webhookDeliveries.nextAttemptAt });
    return row && row.status === 'pending' ? row.nextAttemptAt : null;
  },

  /** The next delivery of the same line once one is settled, if it is due. */
  async nextInLine(db: DbOrTx, id: string): Promise<string | undefined> {
    const next = alias(webhookDeliveries, 'n');
    const [row] = await db
      .select({ id: next.id })
      .from(webhookDeliveries)
      .innerJoin(
        next,
        and(
          eq(next.endpointId, webhookDeliveries.endpointId),
          eq(next.invoiceId, webhookDeliveries.invoiceId),
          eq(next.status, 'pending'),
          gt(next.seq, webhookDeliveries.seq),
        ),
      )
      .where(eq(webhookDeliveries.id, id))
      .orderBy(asc(next.seq))
      .limit(1);
    return row?.id;
  },

  /**
   * Deletes settled deliveries (delivered or given up) created more than `retentionDays` ago, a bounded number per
   * call; pending ones stay until they settle. Returns how many went.
   */
  async purgeSettled(db: DbOrTx, retentionDays: number, limit = 10_000): Promise<number> {
    const result = await db.execute(sql`
      DELETE FROM webhook_deliveries WHERE ctid IN (
        SELECT ctid FROM webhook_deliveries
        WHERE status <> 'pending' AND created_at < now() - make_interval(days => ${retentionDays})
        LIMIT ${limit})`);
    return result.rowCount ?? 0;
  },

  /** Every delivery a worker could attempt now (first of its line and due): jobs lost with Redis come back from here. */
  due(db: DbOrTx, limit = 1_000): Promise<{ id: string; attempts: number }[]> {
    return db
      .select({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts })
      .from(webhookDeliveries)
      .where(and(free, firstOfItsLine))
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit);
  },
};
