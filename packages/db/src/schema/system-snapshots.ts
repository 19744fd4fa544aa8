import { sql, type SQL } from 'drizzle-orm';
import { jsonb, pgTable, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { SistemaInformatico } from '@vf/core';

/**
 * Each SistemaInformatico block a record was generated with, kept once (migration 0031): every record of a system
 * version carried the same 270 bytes of JSON. Written by the append statement, named by a digest of its content,
 * never changed nor deleted.
 */
export const systemSnapshots = pgTable('system_snapshots', {
  id: uuid('id').primaryKey(),
  snapshot: jsonb('snapshot').$type<SistemaInformatico>().notNull(),
});

/** A record's SistemaInformatico block, read by its id (a selected column of any query of invoices). */
export function systemSnapshotOf(id: AnyPgColumn): SQL<SistemaInformatico> {
  return sql<SistemaInformatico>`(SELECT ${systemSnapshots.snapshot} FROM ${systemSnapshots} WHERE ${systemSnapshots.id} = ${id})`;
}
