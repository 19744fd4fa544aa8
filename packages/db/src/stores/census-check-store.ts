import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { censusAnswers, taxIdChecks } from '../schema';

export interface CensusAnswer {
  nif: string;
  nameDigest: string;
  detail: string;
  censusName: string | null;
  requestDigest: string;
  checkedAt: Date;
}

export interface TaxIdCheck {
  taxId: string;
  result: string;
  detail: string;
  source: string;
  requestDigest: string;
  /** VIES's consultation number and fault code; null for the census's answers. */
  requestIdentifier?: string | null;
  faultCode?: string | null;
  checkedAt: Date;
}

// Many rows go as one JSON parameter: a statement of 10,000 rows' values is slow to build and to plan, and would pass
// PostgreSQL's 65,535 parameters.
const asJson = (rows: readonly unknown[]) => JSON.stringify(rows);

/** The census's answers shared by the deployment, and each account's evidence of its checks. */
export const censusCheckStore = {
  /** The answers held for these NIFs checked at `notBefore` or later (the caller picks the names it asked). */
  async freshAnswers(db: DbOrTx, nifs: readonly string[], notBefore: Date): Promise<CensusAnswer[]> {
    if (nifs.length === 0) return [];
    return db
      .select()
      .from(censusAnswers)
      .where(
        and(
          sql`${censusAnswers.nif} IN (SELECT jsonb_array_elements_text(${asJson([...new Set(nifs)])}::jsonb))`,
          gte(censusAnswers.checkedAt, notBefore),
        ),
      );
  },

  /** Keeps answers, each replacing an older one of its NIF and name. */
  async keepAnswers(db: DbOrTx, answers: readonly CensusAnswer[]): Promise<void> {
    if (answers.length === 0) return;
    const rows = answers.map((a) => ({
      nif: a.nif,
      name_digest: a.nameDigest,
      detail: a.detail,
      census_name: a.censusName,
      request_digest: a.requestDigest,
      checked_at: a.checkedAt.toISOString(),
    }));
    await db.execute(sql`
      INSERT INTO census_answers (nif, name_digest, detail, census_name, request_digest, checked_at)
      SELECT r.nif, r.name_digest, r.detail, r.census_name, r.request_digest, r.checked_at
        FROM jsonb_to_recordset(${asJson(rows)}::jsonb)
          AS r(nif text, name_digest text, detail text, census_name text, request_digest text, checked_at timestamptz)
      ON CONFLICT (nif, name_digest) DO UPDATE SET detail = excluded.detail, census_name = excluded.census_name,
        request_digest = excluded.request_digest, checked_at = excluded.checked_at`);
  },

  async recordChecks(db: DbOrTx, accountId: string, checks: readonly TaxIdCheck[]): Promise<void> {
    if (checks.length === 0) return;
    const rows = checks.map((c) => ({
      tax_id: c.taxId,
      result: c.result,
      detail: c.detail,
      source: c.source,
      request_digest: c.requestDigest,
      request_identifier: c.requestIdentifier ?? null,
      fault_code: c.faultCode ?? null,
      checked_at: c.checkedAt.toISOString(),
    }));
    await db.execute(sql`
      INSERT INTO tax_id_checks (account_id, tax_id, result, detail, source, request_digest, request_identifier, fault_code, checked_at)
      SELECT ${accountId}, r.tax_id, r.result, r.detail, r.source, r.request_digest, r.request_identifier, r.fault_code, r.checked_at
        FROM jsonb_to_recordset(${asJson(rows)}::jsonb) AS r(tax_id text, result text, detail text, source text,
             request_digest text, request_identifier text, fault_code text, checked_at timestamptz)`);
  },

  /** The tax IDs the account checked since `since`, and how many its plan allows in a month. */
  async monthlyUsage(db: DbOrTx, accountId: string, since: Date): Promise<{ used: number; allowance: number }> {
    const { rows } = await db.execute<{ used: number; allowance: number }>(sql`
      SELECT p.monthly_tax_id_checks AS allowance,
             (SELECT count(*)::int FROM tax_id_checks c WHERE c.account_id = a.id AND c.recorded_at >= ${since.toISOString()}) AS used
        FROM accounts a JOIN plans p ON p.id = a.plan_id
       WHERE a.id = ${accountId}`);
    return rows[0] ?? { used: 0, allowance: 0 };
  },

  /** The account's own checks, newest first; of one tax ID when given. */
  listChecks(db: DbOrTx, accountId: string, opts: { limit: number; taxId?: string }): Promise<TaxIdCheck[]> {
    const mine = eq(taxIdChecks.accountId, accountId);
    return db
      .select({
        taxId: taxIdChecks.taxId,
        result: taxIdChecks.result,
        detail: taxIdChecks.detail,
        source: taxIdChecks.source,
        requestDigest: taxIdChecks.requestDigest,
        requestIdentifier: taxIdChecks.requestIdentifier,
        faultCode: taxIdChecks.faultCode,
        checkedAt: taxIdChecks.checkedAt,
      })
      .from(taxIdChecks)
      .where(opts.taxId ? and(mine, eq(taxIdChecks.taxId, opts.taxId)) : mine)
      .orderBy(desc(taxIdChecks.recordedAt))
      .limit(opts.limit);
  },
};
