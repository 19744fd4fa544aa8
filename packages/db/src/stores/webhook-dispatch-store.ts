import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client';
import type { AuthorityStatus } from '../schema';

/** A status change waiting in the outbox, with what its events need to say. */
export interface OutboxChange {
  outboxId: number;
  accountId: string | null;
  /** The public invoice id (its first record's), shared by its corrections and cancellations: the ordering line. */
  invoiceId: string | null;
  /** The chain record whose status changed. */
  recordId: string | null;
  recordType: string;
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
    if ((await db.execute(sql`SELECT 1 FROM webhook_outbox LIMIT 1`)).rows.length === 0) return { outboxRows: 0, deliveryIds: [] };
    return db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${RELAY_LOCK}))`);
      const { rows } = await tx.execute<Record<string, unknown>>(sql`
        SELECT o.id AS outbox_id, i.account_id, i.invoice_id, i.id AS record_id, i.record_type, i.invoice_number, i.invoice_date::text AS invoice_date,
               i.taxpayer_id, i.issuer_nif, e.status, e.code, e.message, e.at,
               (SELECT p.status FROM invoice_status_events p WHERE p.invoice_id = e.invoice_id AND p.id < e.id
                ORDER BY p.id DESC LIMIT 1) AS previous_status
        FROM webhook_outbox o
        LEFT JOIN invoice_status_events e ON e.id = o.status_event_id
        LEFT JOIN invoices i ON i.id = e.invoice_id
        ORDER BY o.id
        LIMIT ${limit}`);
      if (rows.length === 0) return { outboxRows: 0, deliveryIds: [] };
      const changes: OutboxChange[] = rows.map((r) => ({
        outboxId: Number(r.outbox_id),
        accountId: (r.account_id as string | null) ?? null,
        invoiceId: (r.invoice_id as string | null) ?? null,
        recordId: (r.record_id as string | null) ?? null,
        recordType: String(r.record_type),
        invoiceNumber: String(r.invoice_number),
        invoiceDate: String(r.invoice_date),
        taxpayerId: String(r.taxpayer_id),
        issuerNif: String(r.issuer_nif),
        status: r.status as AuthorityStatus,
        previousStatus: (r.previous_status as AuthorityStatus | null) ?? null,
        code: (r.code as number | null) ?? null,
        message: (r.message as string | null) ?? null,
        at: new Date(r.at as string),
      }));
      const accounts = [...new Set(changes.map((c) => c.accountId).filter((a): a is string => a !== null))];
      const endpoints =
        accounts.length === 0
          ? []
          : (
              await tx.execute<{ id: string; account_id: string; events: string[] }>(sql`
                SELECT id, account_id, events FROM webhook_endpoints
                WHERE account_id IN (${sql.join(
                  accounts.map((a) => sql`${a}::uuid`),
                  sql`, `,
                )})`)
            ).rows.map((e) => ({ id: e.id, accountId: e.account_id, events: e.events }));
      const ids: string[] = [];
      // One by one, so seq follows the plan's order.
      for (const d of plan(changes, endpoints)) {
        const inserted = await tx.execute<{ id: string }>(sql`
          INSERT INTO webhook_deliveries (endpoint_id, invoice_id, event_type, payload)
          VALUES (${d.endpointId}, ${d.invoiceId}, ${d.eventType}, ${d.payload}) RETURNING id`);
        ids.push(inserted.rows[0].id);
      }
      await tx.execute(
        sql`DELETE FROM webhook_outbox WHERE id IN (${sql.join(
          changes.map((c) => sql`${c.outboxId}`),
          sql`, `,
        )})`,
      );
      return { outboxRows: rows.length, deliveryIds: ids };
    });
  },

  /**
   * Takes one delivery for an attempt: pending, due, not held by another worker, and first of its invoice's line
   * to that endpoint (a later event of an invoice waits for the earlier one).
   */
  async claim(db: DbOrTx, id: string, holdMs: number): Promise<ClaimedDelivery | undefined> {
    const { rows } = await db.execute<{ id: string; url: string; secret: Buffer; payload: string; attempts: number }>(sql`
      UPDATE webhook_deliveries d SET locked_until = now() + make_interval(secs => ${holdMs / 1000})
      FROM webhook_endpoints w
      WHERE d.id = ${id} AND w.id = d.endpoint_id AND d.status = 'pending' AND d.next_attempt_at <= now()
        AND (d.locked_until IS NULL OR d.locked_until < now())
        AND (d.invoice_id IS NULL OR NOT EXISTS (
          SELECT 1 FROM webhook_deliveries p
          WHERE p.endpoint_id = d.endpoint_id AND p.invoice_id = d.invoice_id AND p.status = 'pending' AND p.seq < d.seq))
      RETURNING d.id, w.url, w.secret, d.payload, d.attempts`);
    return rows[0];
  },

  /**
   * Records an attempt. A failure is retried after retryDelaysMs[attempts - 1]; past the last delay the delivery
   * is given up (`failed`). Returns the next attempt time, or null once the delivery is settled.
   */
  async recordAttempt(db: DbOrTx, id: string, result: AttemptResult, retryDelaysMs: readonly number[]): Promise<Date | null> {
    const { rows } = await db.execute<{ status: string; next_attempt_at: string }>(sql`
      UPDATE webhook_deliveries SET
        attempts = attempts + 1,
        last_response_code = ${result.responseCode},
        last_error = ${result.error},
        locked_until = NULL,
        status = CASE WHEN ${result.ok} THEN 'delivered'
                      WHEN attempts + 1 > ${retryDelaysMs.length} THEN 'failed' ELSE 'pending' END,
        delivered_at = CASE WHEN ${result.ok} THEN now() ELSE NULL END,
        next_attempt_at = CASE WHEN ${result.ok} OR attempts + 1 > ${retryDelaysMs.length} THEN next_attempt_at
          ELSE now() + make_interval(secs => (${`{${retryDelaysMs.join(',')}}`}::int[])[attempts + 1] / 1000.0) END
      WHERE id = ${id}
      RETURNING status, next_attempt_at`);
    const row = rows[0];
    return row && row.status === 'pending' ? new Date(row.next_attempt_at) : null;
  },

  /** The next delivery of the same line once one is settled, if it is due. */
  async nextInLine(db: DbOrTx, id: string): Promise<string | undefined> {
    const { rows } = await db.execute<{ id: string }>(sql`
      SELECT n.id FROM webhook_deliveries d
      JOIN webhook_deliveries n ON n.endpoint_id = d.endpoint_id AND n.invoice_id = d.invoice_id AND n.status = 'pending' AND n.seq > d.seq
      WHERE d.id = ${id}
      ORDER BY n.seq LIMIT 1`);
    return rows[0]?.id;
  },

  /** Every delivery a worker could attempt now (first of its line and due): jobs lost with Redis come back from here. */
  async due(db: DbOrTx, limit = 1_000): Promise<{ id: string; attempts: number }[]> {
    const { rows } = await db.execute<{ id: string; attempts: number }>(sql`
      SELECT d.id, d.attempts FROM webhook_deliveries d
      WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND (d.locked_until IS NULL OR d.locked_until < now())
        AND (d.invoice_id IS NULL OR NOT EXISTS (
          SELECT 1 FROM webhook_deliveries p
          WHERE p.endpoint_id = d.endpoint_id AND p.invoice_id = d.invoice_id AND p.status = 'pending' AND p.seq < d.seq))
      ORDER BY d.next_attempt_at LIMIT ${limit}`);
    return rows;
  },
};
