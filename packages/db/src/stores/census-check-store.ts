import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
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

/** The census's answers shared by the deployment, and each account's evidence of its checks. */
export const censusCheckStore = {
  /** The answers held for these NIFs checked at `notBefore` or later (the caller picks the names it asked). */
  async freshAnswers(db: DbOrTx, nifs: readonly string[], notBefore: Date): Promise<CensusAnswer[]> {
    if (nifs.length === 0) return [];
    return db
      .select()
      .from(censusAnswers)
      .where(and(inArray(censusAnswers.nif, [...new Set(nifs)]), gte(censusAnswers.checkedAt, notBefore)));
  },

  /** Keeps answers, each replacing an older one of its NIF and name. */
  async keepAnswers(db: DbOrTx, answers: readonly CensusAnswer[]): Promise<void> {
    if (answers.length === 0) return;
    await db
      .insert(censusAnswers)
      .values([...answers])
      .onConflictDoUpdate({
        target: [censusAnswers.nif, censusAnswers.nameDigest],
        set: {
          detail: sql`excluded.detail`,
          censusName: sql`excluded.census_name`,
          requestDigest: sql`excluded.request_digest`,
          checkedAt: sql`excluded.checked_at`,
        },
      });
  },

  async recordChecks(db: DbOrTx, accountId: string, checks: readonly TaxIdCheck[]): Promise<void> {
    if (checks.length === 0) return;
    await db.insert(taxIdChecks).values(checks.map((check) => ({ ...check, accountId })));
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
