import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** Position in a (created_at, id) ordered listing; createdAt is PostgreSQL's own text form, so microseconds survive. */
export interface PageKey {
  createdAt: string;
  id: string;
}

/** Select this to get each row's PageKey. */
export function pageKeyColumns(createdAt: PgColumn, id: PgColumn) {
  return { createdAt: sql<string>`${createdAt}::text`, id: sql<string>`${id}` };
}

/** Rows strictly after `key` in the listing's order. */
export function afterPageKey(createdAt: PgColumn, id: PgColumn, key: PageKey, order: 'asc' | 'desc'): SQL {
  return order === 'asc'
    ? sql`(${createdAt}, ${id}) > (${key.createdAt}::timestamptz, ${key.id}::uuid)`
    : sql`(${createdAt}, ${id}) < (${key.createdAt}::timestamptz, ${key.id}::uuid)`;
}
