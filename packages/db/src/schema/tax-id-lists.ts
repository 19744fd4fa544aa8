import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { accounts } from './accounts';

export type TaxIdListStatus = 'pending' | 'done';

/** A list of up to 10,000 tax IDs the workers check (POST /tax-ids/lists). */
export const taxIdLists = pgTable(
  'tax_id_lists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The taxpayer whose certificate (census) and VAT number (VIES) the checks go under; the platform's otherwise. */
    taxpayerId: uuid('taxpayer_id'),
    /** Seconds: census answers held no older than this are used. */
    maxAge: integer('max_age').notNull(),
    status: text('status').$type<TaxIdListStatus>().notNull().default('pending'),
    total: integer('total').notNull(),
    answered: integer('answered').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('tax_id_lists_account_idx').on(t.accountId, t.createdAt.desc()),
    index('tax_id_lists_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/** One tax ID of a list, in the order given, and its answer once the workers have it. */
export const taxIdListRows = pgTable(
  'tax_id_list_rows',
  {
    listId: uuid('list_id')
      .notNull()
      .references(() => taxIdLists.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    taxId: text('tax_id').notNull(),
    /** `nif` (the census) or `vat_number` (VIES). */
    kind: text('kind').$type<'nif' | 'vat_number'>().notNull(),
    /** The name asked with a NIF, kept only until the row is answered. */
    name: text('name'),
    result: text('result'),
    detail: text('detail'),
    censusName: text('census_name'),
    faultCode: text('fault_code'),
    requestIdentifier: text('request_identifier'),
    source: text('source'),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ name: 'tax_id_list_rows_pk', columns: [t.listId, t.position] })],
);
