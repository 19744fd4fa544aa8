import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { chains } from './chains';
import { invoices } from './invoices';
import { taxpayers } from './taxpayers';

/** One SOAP exchange with the authority (or the simulator): the audit trail. */
export const submissions = pgTable(
  'submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    taxpayerId: uuid('taxpayer_id')
      .notNull()
      .references(() => taxpayers.id, { onDelete: 'cascade' }),
    /** The chain whose records the message carried: one environment, one issuer. */
    chainId: uuid('chain_id')
      .notNull()
      .references(() => chains.id, { onDelete: 'cascade' }),
    /** in_flight | answered | transport_error | fault */
    outcome: text('outcome').notNull().default('in_flight'),
    workerId: text('worker_id').notNull(),
    endpoint: text('endpoint').notNull(),
    /** 'taxpayer' (its own PKCS#12) or 'platform' (social collaborator). */
    certificateMode: text('certificate_mode').notNull(),
    incident: boolean('incident').notNull().default(false),
    recordCount: integer('record_count').notNull(),
    requestXml: text('request_xml').notNull(),
    responseXml: text('response_xml'),
    httpStatus: integer('http_status'),
    faultCode: text('fault_code'),
    errorMessage: text('error_message'),
    csv: text('csv'),
    waitSeconds: integer('wait_seconds'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('submissions_taxpayer_idx').on(t.taxpayerId, t.startedAt), index('submissions_chain_idx').on(t.chainId, t.startedAt)],
);

export const submissionInvoices = pgTable(
  'submission_invoices',
  {
    submissionId: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.invoiceId] }), index('submission_invoices_invoice_idx').on(t.invoiceId)],
);

/**
 * Flow control, failure backoff and the single-sender lease per chain (one NIF in one environment, as the authority
 * keys its waiting time): survives restarts, shared by the whole worker fleet.
 */
export const sendStates = pgTable('send_states', {
  chainId: uuid('chain_id')
    .primaryKey()
    .references(() => chains.id, { onDelete: 'cascade' }),
  /** Earliest time the next message may go, unless 1,000 records are waiting. */
  nextSendAt: timestamp('next_send_at', { withTimezone: true }).notNull().defaultNow(),
  waitSeconds: integer('wait_seconds').notNull().default(60),
  lastSendAt: timestamp('last_send_at', { withTimezone: true }),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  /** Start of the current run of failed sends (an outage); null once an answer arrives. */
  failingSince: timestamp('failing_since', { withTimezone: true }),
  /** Single-sender lease: holder and expiry; renewed while a send is in flight. */
  leaseOwner: text('lease_owner'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  /** The highest chain position put in a message so far: chain_length minus this is roughly what waits to be sent. */
  sentThroughSeq: integer('sent_through_seq').notNull().default(0),
});
