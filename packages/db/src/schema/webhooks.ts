import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { bytea } from './taxpayers';

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** The event types this endpoint receives. */
    events: jsonb('events').$type<string[]>().notNull(),
    /** AES-256-GCM envelope of the whsec_ signing secret (MASTER_KEY). */
    secret: bytea('secret').notNull(),
    /** When the secret was shown; it is shown once (the API answer, or the dashboard's page after creation). */
    secretRevealedAt: timestamp('secret_revealed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_account_idx').on(t.accountId, t.createdAt)],
);

/**
 * Written in the transaction of the status change itself: by a trigger on invoice_status_events for a change, by the
 * append for a record's first status, which no event row keeps (decision 0065). `recordId` names the record; an event's
 * row names the event too (`statusEventId`), found by the events' primary key, (record, id) (decision 0069).
 */
export const webhookOutbox = pgTable('webhook_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  statusEventId: bigint('status_event_id', { mode: 'number' }),
  recordId: uuid('record_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** Also the webhook-id header: the same on every attempt, so receivers can drop duplicates. */
    id: uuid('id').primaryKey().defaultRandom(),
    /** Creation order: an invoice's deliveries to one endpoint go out in this order. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The invoice the event is about (its ordering line); null for a test event. */
    invoiceId: uuid('invoice_id'),
    eventType: text('event_type').notNull(),
    /** The exact JSON that is signed and sent, identical on every attempt. */
    payload: text('payload').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastResponseCode: integer('last_response_code'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** Held by the worker making an attempt. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_pending_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_line_idx')
      .on(t.endpointId, t.invoiceId, t.seq)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_settled_idx')
      .on(t.createdAt)
      .where(sql`${t.status} <> 'pending'`),
  ],
);
