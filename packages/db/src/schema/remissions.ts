import { boolean, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { chains } from './chains';
import { taxpayers } from './taxpayers';

export type RemissionStatus = 'sending' | 'completed' | 'failed';
export type RemissionMessageStatus = 'waiting' | 'in_flight' | 'answered' | 'refused';

/** A record of a message that the authority did not take as it was: rejected, or accepted with errors. */
export interface RemissionProblemJson {
  invoice_number: string;
  invoice_date: string;
  state: 'AceptadoConErrores' | 'Incorrecto';
  code?: number;
  description?: string;
}

/**
 * A remission on the authority's request (requerimiento): the kept records of a period, sent signed and unchanged
 * to RequerimientoSOAP; planned whole when it starts. Its row holds its sender's lease and flow control.
 */
export const remissions = pgTable(
  'remissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    taxpayerId: uuid('taxpayer_id')
      .notNull()
      .references(() => taxpayers.id, { onDelete: 'cascade' }),
    chainId: uuid('chain_id')
      .notNull()
      .references(() => chains.id, { onDelete: 'cascade' }),
    isProduction: boolean('is_production').notNull(),
    requirementReference: varchar('requirement_reference', { length: 18 }).notNull(),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    status: text('status').$type<RemissionStatus>().notNull().default('sending'),
    recordCount: integer('record_count').notNull(),
    messageCount: integer('message_count').notNull(),
    nextSendAt: timestamp('next_send_at', { withTimezone: true }).notNull().defaultNow(),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    errorCode: integer('error_code'),
    errorMessage: text('error_message'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('remissions_taxpayer_idx').on(t.taxpayerId, t.createdAt.desc())],
);

/** One message of a remission: its records (in chain order) fixed when the remission starts, its attempts and answer. */
export const remissionMessages = pgTable(
  'remission_messages',
  {
    remissionId: uuid('remission_id')
      .notNull()
      .references(() => remissions.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    invoiceIds: uuid('invoice_ids').array().notNull(),
    /** FinRequerimiento = S. */
    isLast: boolean('is_last').notNull(),
    status: text('status').$type<RemissionMessageStatus>().notNull().default('waiting'),
    attempts: integer('attempts').notNull().default(0),
    csv: text('csv'),
    sendState: text('send_state'),
    accepted: integer('accepted'),
    acceptedWithErrors: integer('accepted_with_errors'),
    /** Records the authority already held (3000): delivered by an earlier attempt whose answer was lost. */
    duplicates: integer('duplicates'),
    rejected: integer('rejected'),
    problems: jsonb('problems').$type<RemissionProblemJson[]>().notNull().default([]),
    lastError: text('last_error'),
    /** The request of the last attempt, each record a mark of its signed bytes (decision 0023). */
    requestXml: text('request_xml'),
    responseXml: text('response_xml'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ name: 'remission_messages_pk', columns: [t.remissionId, t.seq] })],
);
