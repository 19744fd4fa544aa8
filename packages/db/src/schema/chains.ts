import { boolean, check, date, index, integer, pgTable, text, timestamp, unique, uuid, varchar } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { taxpayers } from './taxpayers';

/**
 * One hash chain per NIF and environment, service-wide: the row is both the chain head (locked FOR NO KEY UPDATE
 * while a record is appended) and the claim that gives the NIF to one taxpayer of one account in that environment.
 */
export const chains = pgTable(
  'chains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    taxpayerId: uuid('taxpayer_id')
      .notNull()
      .references(() => taxpayers.id, { onDelete: 'cascade' }),
    nif: varchar('nif', { length: 9 }).notNull(),
    isProduction: boolean('is_production').notNull(),
    /**
     * A sandbox taxpayer's chain of scenario records: sent only to the simulator, never to the authority
     * (docs/decisions/0040-scenario-chains-apart.md).
     */
    scenario: boolean('scenario').notNull().default(false),
    chainLength: integer('chain_length').notNull().default(0),
    lastInvoiceId: uuid('last_invoice_id'),
    /**
     * The chain's share of its account's monthly quota ("YYYY-MM", Europe/Madrid): registrations counted and allowed
     * this month. An append checks and counts them on this row, which it updates anyway; see quota-store.ts.
     */
    usagePeriod: text('usage_period'),
    usageUsed: integer('usage_used').notNull().default(0),
    usageAllowance: integer('usage_allowance').notNull().default(0),
    /**
     * The taxpayer's way of complying in this environment (migration 0024): records sent as they are made, or signed,
     * kept and sent only on request. `verifactuUntil`: the declared FechaFinVeriFactu, NO VERI*FACTU from the day after.
     */
    operatingMode: text('operating_mode').$type<'verifactu' | 'no_verifactu'>().notNull().default('verifactu'),
    verifactuUntil: date('verifactu_until', { mode: 'string' }),
    modeSince: timestamp('mode_since', { withTimezone: true }).notNull().defaultNow(),
    /** Changed with every change of mode: the append's compare-and-swap holds it as it holds the head. */
    modeVersion: integer('mode_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('chains_nif_environment_uq').on(t.nif, t.isProduction, t.scenario),
    check('chains_scenario_in_sandbox', sql`NOT (${t.scenario} AND ${t.isProduction})`),
    index('chains_taxpayer_idx').on(t.taxpayerId),
    check('chains_usage_within_allowance', sql`${t.usageUsed} <= ${t.usageAllowance}`),
    check('chains_operating_mode_ck', sql`${t.operatingMode} IN ('verifactu', 'no_verifactu')`),
    check('chains_verifactu_until_ck', sql`${t.verifactuUntil} IS NULL OR ${t.operatingMode} = 'verifactu'`),
  ],
);
