import type { Pool } from 'pg';

/** The tables every registered record writes to (with their indexes and TOAST): the record, its lines, its status events. */
const RECORD_TABLES = ['invoices', 'invoice_lines', 'invoice_status_events'];

export interface StorageFootprint {
  stack: string;
  records: number;
  bytes: number;
  bytesPerRecord: number | null;
}

/** What the records of a stack's database occupy on disk, per record (a stack runs several workloads). */
export async function storageFootprint(pool: Pool, stack: string): Promise<StorageFootprint> {
  const { rows } = await pool.query<{ records: number; bytes: string }>(
    `SELECT (SELECT count(*) FROM invoices)::int AS records,
            (SELECT sum(pg_total_relation_size(t::regclass)) FROM unnest($1::text[]) t)::bigint AS bytes`,
    [RECORD_TABLES],
  );
  const records = rows[0].records;
  const bytes = Number(rows[0].bytes);
  return { stack, records, bytes, bytesPerRecord: records ? Math.round(bytes / records) : null };
}
