import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { invoices } from './invoices';

/** A record as it was signed: the exact bytes every message that carries it embeds (written once, never changed). */
export const signedRecords = pgTable('signed_records', {
  invoiceId: uuid('invoice_id')
    .primaryKey()
    .references(() => invoices.id, { onDelete: 'cascade' }),
  xml: text('xml').notNull(),
  signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
});
