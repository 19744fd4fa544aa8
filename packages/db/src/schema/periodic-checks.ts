import { pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { chains } from './chains';

/**
 * The periodic full checks of the NO VERI*FACTU chains, one row per chain and period: the worker whose insert makes
 * the row runs that period's check; the others find it there and leave it.
 */
export const periodicChecks = pgTable(
  'periodic_checks',
  {
    chainId: uuid('chain_id')
      .notNull()
      .references(() => chains.id, { onDelete: 'cascade' }),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'periodic_checks_pk', columns: [t.chainId, t.periodStart] })],
);
