import { and, count, eq, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { invoices, type AuthorityStatus } from '../schema';
import { invoiceCurrentStatus } from './invoice-list-store';

export interface StatusCount {
  status: AuthorityStatus;
  corrective: boolean;
  n: number;
}

/** How many invoices of one month (YYYY-MM, Madrid time) are in one status now. */
export interface MonthStatusCount {
  month: string;
  status: AuthorityStatus;
  n: number;
}

/** Counts over invoices and their records: for an account's overview, and for the whole service's metrics. */
export const invoiceStatisticsStore = {
  /**
   * Invoices per current status, normal (F*) and corrective (R*) apart: counted on the invoices' first rows, which keep
   * their current record's status and type (migrations 0027 and 0030), one scan without a join.
   */
  async countsByStatus(db: DbOrTx, accountId: string): Promise<StatusCount[]> {
    const status = invoiceCurrentStatus;
    const corrective = sql<boolean>`(coalesce(${invoices.currentInvoiceType}, ${invoices.invoiceType}) LIKE 'R%')`;
    return db
      .select({ status, corrective, n: count() })
      .from(invoices)
      .where(and(eq(invoices.accountId, accountId), isNotNull(invoices.currentRecordId)))
      .groupBy(status, corrective);
  },

  /**
   * Invoices registered from `fromMonth` (YYYY-MM, its first day in Madrid time) on, by the month they were registered
   * in (Madrid time) and their current status; months without any are absent.
   */
  async monthlyByStatus(db: DbOrTx, accountId: string, fromMonth: string): Promise<MonthStatusCount[]> {
    const { rows } = await db.execute<{ month: string; status: AuthorityStatus; n: number }>(sql`
      select to_char(i.created_at at time zone 'Europe/Madrid', 'YYYY-MM') as month, cur.authority_status as status, count(*)::int as n
      from invoices i
      join invoices cur on cur.id = i.current_record_id
      where i.account_id = ${accountId}
        and i.created_at >= (${`${fromMonth}-01`}::timestamp at time zone 'Europe/Madrid')
      group by 1, 2`);
    return rows.map((r) => ({ month: r.month, status: r.status, n: Number(r.n) }));
  },

  /**
   * Every record of every account per authority status (corrections and cancellations count as records), sandbox
   * scenario records aside: a tenant's rehearsed error is not one an operator must act on. Those are counted on the
   * scenario chains (few, each read through its chain's index) and taken from the whole table's counts.
   */
  async recordsByStatus(db: DbOrTx): Promise<{ status: AuthorityStatus; n: number }[]> {
    const { rows } = await db.execute<{ status: AuthorityStatus; n: number }>(sql`
      SELECT a.status, (a.n - coalesce(r.n, 0))::int AS n
      FROM (SELECT authority_status AS status, count(*) AS n FROM invoices GROUP BY 1) a
      LEFT JOIN (SELECT i.authority_status AS status, count(*) AS n FROM chains c JOIN invoices i ON i.chain_id = c.id
                 WHERE c.scenario GROUP BY 1) r USING (status)`);
    return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
  },
};
