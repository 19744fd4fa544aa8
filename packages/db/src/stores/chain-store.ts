import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { chains, invoices } from '../schema';
import { literalCount } from './literal-count';

export interface ChainState {
  id: string;
  nif: string;
  isProduction: boolean;
  chainLength: number;
  lastHash: string | null;
  lastRecordAt: Date | null;
}

/** TiempoEsperaEnvio the simulator answers a scenario message: a scenario chain's waiting time from its start. */
export const SCENARIO_WAIT_SECONDS = 1;

export type ClaimResult = { kind: 'claimed'; chainId: string } | { kind: 'taken' };

export const chainStore = {
  /**
   * Gives this NIF's chain in this environment to the taxpayer: creates it, or finds it already the taxpayer's
   * (switching back to an environment resumes its chain). `taken` when another taxpayer, in any account, holds it.
   */
  async claim(db: DbOrTx, taxpayerId: string, nif: string, isProduction: boolean): Promise<ClaimResult> {
    const [created] = await db
      .insert(chains)
      .values({ taxpayerId, nif, isProduction })
      .onConflictDoNothing({ target: [chains.nif, chains.isProduction, chains.scenario] })
      .returning({ id: chains.id });
    if (created) return { kind: 'claimed', chainId: created.id };
    const [existing] = await db
      .select({ id: chains.id, taxpayerId: chains.taxpayerId })
      .from(chains)
      .where(and(eq(chains.nif, nif), eq(chains.isProduction, isProduction), eq(chains.scenario, false)));
    // Deleted between the two statements (its taxpayer was removed): nobody holds it; the caller may retry.
    if (!existing || existing.taxpayerId !== taxpayerId) return { kind: 'taken' };
    return { kind: 'claimed', chainId: existing.id };
  },

  /**
   * The sandbox taxpayer's scenario chain (docs/decisions/0040-scenario-chains-apart.md), made on its first scenario
   * record: it follows the claim of the NIF's sandbox chain, so `taken` when that chain is another taxpayer's.
   */
  async claimScenario(db: DbOrTx, taxpayerId: string, nif: string): Promise<ClaimResult> {
    // Its waiting time starts at the simulator's second for scenarios, not the authority's minute: until its first
    // answer, a scenario chain's retries and its next message wait by it.
    const { rows } = await db.execute<{ id: string }>(sql`
      WITH made AS (
        INSERT INTO chains (taxpayer_id, nif, is_production, scenario)
        SELECT taxpayer_id, nif, false, true FROM chains
        WHERE taxpayer_id = ${taxpayerId} AND nif = ${nif} AND NOT is_production AND NOT scenario
        ON CONFLICT (nif, is_production, scenario) DO NOTHING
        RETURNING id
      ), timing AS (
        INSERT INTO send_states (chain_id, wait_seconds) SELECT id, ${SCENARIO_WAIT_SECONDS} FROM made
      )
      SELECT id FROM made`);
    const [created] = rows;
    if (created) return { kind: 'claimed', chainId: created.id };
    const [existing] = await db
      .select({ id: chains.id })
      .from(chains)
      .where(and(eq(chains.taxpayerId, taxpayerId), eq(chains.nif, nif), eq(chains.isProduction, false), eq(chains.scenario, true)));
    return existing ? { kind: 'claimed', chainId: existing.id } : { kind: 'taken' };
  },

  /** Gives up every claim of a taxpayer whose chains are all empty (before its NIF changes). */
  async releaseEmpty(db: DbOrTx, taxpayerId: string): Promise<void> {
    await db.delete(chains).where(and(eq(chains.taxpayerId, taxpayerId), eq(chains.chainLength, 0)));
  },

  async totalRecords(db: DbOrTx, taxpayerId: string): Promise<number> {
    const rows = await db.select({ n: chains.chainLength }).from(chains).where(eq(chains.taxpayerId, taxpayerId));
    return rows.reduce((sum, r) => sum + r.n, 0);
  },

  /** The taxpayer's chain in one environment; undefined when it never had one there. */
  async state(db: DbOrTx, taxpayerId: string, isProduction: boolean): Promise<ChainState | undefined> {
    const [row] = await db
      .select({
        id: chains.id,
        nif: chains.nif,
        isProduction: chains.isProduction,
        chainLength: chains.chainLength,
        lastHash: invoices.hash,
        lastRecordAt: invoices.generatedAt,
      })
      .from(chains)
      .leftJoin(invoices, eq(invoices.id, chains.lastInvoiceId))
      .where(and(eq(chains.taxpayerId, taxpayerId), eq(chains.isProduction, isProduction), eq(chains.scenario, false)));
    return row;
  },

  /** One page of a chain in chain order, with exactly the stored values the huella was computed from. */
  recordsInOrder(db: DbOrTx, chainId: string, afterSeq: number, limit: number) {
    return db
      .select({
        id: invoices.id,
        chainSeq: invoices.chainSeq,
        recordType: invoices.recordType,
        issuerNif: invoices.issuerNif,
        invoiceNumber: invoices.invoiceNumber,
        invoiceDate: invoices.invoiceDate,
        invoiceType: invoices.invoiceType,
        totalAmount: invoices.totalAmount,
        totalTaxAmount: invoices.totalTaxAmount,
        generatedAt: invoices.generatedAt,
        generatedAtLiteral: invoices.generatedAtLiteral,
        previousInvoiceId: invoices.previousInvoiceId,
        previousHash: invoices.previousHash,
        hash: invoices.hash,
      })
      .from(invoices)
      .where(and(eq(invoices.chainId, chainId), gt(invoices.chainSeq, afterSeq)))
      .orderBy(asc(invoices.chainSeq))
      .limit(literalCount(limit));
  },
};
