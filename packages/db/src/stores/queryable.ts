import type { QueryResultRow } from 'pg';

/** A pg Pool, or a client inside a transaction: both take a named (prepared) query. */
export interface Queryable {
  query<R extends QueryResultRow>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
}
