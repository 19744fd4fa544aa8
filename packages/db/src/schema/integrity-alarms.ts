import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { chains } from './chains';

/** An anomaly found in a NO VERI*FACTU chain: the chain is in alarm while any row of it is not cleared (migration 0025). */
export const integrityAlarms = pgTable(
  'integrity_alarms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chainId: uuid('chain_id')
      .notNull()
      .references(() => chains.id, { onDelete: 'cascade' }),
    subject: text('subject').$type<'records' | 'events'>().notNull(),
    anomaly: text('anomaly').$type<'hash' | 'signature' | 'time' | 'chain'>().notNull(),
    recordId: uuid('record_id'),
    detail: text('detail').notNull(),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull().defaultNow(),
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
  },
  (t) => [
    index('integrity_alarms_open_idx')
      .on(t.chainId)
      .where(sql`${t.clearedAt} IS NULL`),
    check('integrity_alarms_subject_ck', sql`${t.subject} IN ('records', 'events')`),
    check('integrity_alarms_anomaly_ck', sql`${t.anomaly} IN ('hash', 'signature', 'time', 'chain')`),
  ],
);
