import { boolean, index, integer, pgTable, timestamp, unique, uuid, varchar } from 'drizzle-orm/pg-core';
import { taxpayers } from './taxpayers';

/**
 * One hash chain per NIF and environment, service-wide: the row is both the chain head (locked FOR UPDATE while a
 * record is appended) and the claim that gives the NIF to one taxpayer of one account in that environment.
 */
export const chains = pgTable(
  'chains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    taxpayerId: uuid('taxpayer_id').notNull().references(() => taxpayers.id, { onDelete: 'cascade' }),
    nif: varchar('nif', { length: 9 }).notNull(),
    isProduction: boolean('is_production').notNull(),
    chainLength: integer('chain_length').notNull().default(0),
    lastInvoiceId: uuid('last_invoice_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('chains_nif_environment_uq').on(t.nif, t.isProduction), index('chains_taxpayer_idx').on(t.taxpayerId)],
);
