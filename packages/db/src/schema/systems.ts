import { boolean, index, pgTable, timestamp, uuid, varchar, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { taxpayers } from './taxpayers';

export const computerSystems = pgTable(
  'computer_systems',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    vendorName: varchar('vendor_name', { length: 120 }).notNull(),
    vendorNif: varchar('vendor_nif', { length: 9 }).notNull(),
    name: varchar('name', { length: 30 }).notNull(),
    version: varchar('version', { length: 50 }).notNull(),
    installationNumber: varchar('installation_number', { length: 100 }).notNull(),
    onlySupportsVerifactu: boolean('only_supports_verifactu').notNull().default(true),
    /** IdSistemaInformatico: two characters, uppercase letters (not Ñ) or digits. */
    systemCode: varchar('system_code', { length: 2 }).notNull(),
    /** TipoUsoPosibleMultiOT: the software can keep records for several taxpayers. */
    supportsMultipleTaxpayers: boolean('supports_multiple_taxpayers').notNull().default(true),
    /** A single-taxpayer system's one taxpayer: the first that registered an invoice with it (null until then). */
    soleTaxpayerId: uuid('sole_taxpayer_id').references((): AnyPgColumn => taxpayers.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('computer_systems_account_idx').on(t.accountId)],
);
