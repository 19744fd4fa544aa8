import { and, asc, eq, gt } from 'drizzle-orm';
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
      .onConflictDoNothing({ target: [chains.nif, chains.isProduction] })
      .returning({ id: chains.id });
    if (created) return { kind: 'claimed', chainId: created.id };
    const [existing] = await db
      .select({ id: chains.id, taxpayerId: chains.taxpayerId })
      .from(chains)
      .where(and(eq(chains.nif, nif), eq(chains.isProduction, isProduction)));
    // Deleted between the two statements (its taxpayer was removed): nobody holds it; the caller may retry.
    if (!existing || existing.taxpayerId !== taxpayerId) return { kind: 'taken' };
    return { kind: 'claimed', chainId: existing.id };
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
      .where(and(eq(chains.taxpayerId, taxpayerId), eq(chains.isProduction, isProduction)));
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
