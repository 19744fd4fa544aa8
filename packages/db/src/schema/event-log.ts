import { sql } from 'drizzle-orm';
import { char, check, index, integer, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { chains } from './chains';
import { computerSystems } from './systems';

/** The head of one chain of events: a taxpayer chain's (NIF and environment) events of one computer system. */
export const eventChains = pgTable(
  'event_chains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chainId: uuid('chain_id')
      .notNull()
      .references(() => chains.id, { onDelete: 'cascade' }),
    computerSystemId: uuid('computer_system_id')
      .notNull()
      .references(() => computerSystems.id, { onDelete: 'cascade' }),
    length: integer('length').notNull().default(0),
    lastEventId: uuid('last_event_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('event_chains_chain_system_uq').on(t.chainId, t.computerSystemId)],
);

/** A RegistroEvento as it was signed, with what its successor and the checks read of it (migration 0026). */
export const sifEvents = pgTable(
  'sif_events',
  {
    id: uuid('id').primaryKey(),
    eventChainId: uuid('event_chain_id')
      .notNull()
      .references(() => eventChains.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    eventType: char('event_type', { length: 2 }).notNull(),
    generatedAt: timestamp('generated_at', { withTimezone: true }).notNull(),
    generatedAtLiteral: text('generated_at_literal').notNull(),
    hash: char('hash', { length: 64 }).notNull(),
    previousHash: char('previous_hash', { length: 64 }),
    /** The period a summary (type 10) covers; null for every other type. */
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    xml: text('xml').notNull(),
  },
  (t) => [
    unique('sif_events_chain_seq_uq').on(t.eventChainId, t.seq),
    check('sif_events_period_ck', sql`(${t.eventType} = '10') = (${t.periodStart} IS NOT NULL AND ${t.periodEnd} IS NOT NULL)`),
    uniqueIndex('sif_events_one_summary_a_period_uq')
      .on(t.eventChainId, t.periodStart)
      .where(sql`${t.eventType} = '10'`),
    index('sif_events_chain_time_idx').on(t.eventChainId, t.generatedAt),
  ],
);
