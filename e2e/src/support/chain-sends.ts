import { sql } from 'drizzle-orm';
import type { DisposableDatabase } from './worker-test-env';

/** Messages of one chain that started before the previous one was settled: one sender at a time means none. */
export async function overlappingMessages(db: DisposableDatabase): Promise<unknown[]> {
  const r = await db.db.execute(sql`
    SELECT chain_id FROM (
      SELECT chain_id, started_at, lag(finished_at) OVER (PARTITION BY chain_id ORDER BY started_at) AS previous_finished
      FROM submissions) s
    WHERE started_at < previous_finished`);
  return r.rows;
}

/** A taxpayer's invoice numbers in chain order. */
export async function chainOrder(db: DisposableDatabase, taxpayerId: string): Promise<string[]> {
  const r = await db.db.execute<{ invoice_number: string }>(
    sql`SELECT invoice_number FROM invoices WHERE taxpayer_id = ${taxpayerId} ORDER BY chain_seq`,
  );
  return r.rows.map((row) => row.invoice_number);
}
