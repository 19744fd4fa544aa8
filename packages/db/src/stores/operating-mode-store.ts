import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { chains, invoices, taxpayers } from '../schema';

/** A chain's operating mode as stored (migration 0024). */
export interface StoredMode {
  mode: 'verifactu' | 'no_verifactu';
  /** YYYY-MM-DD: the declared FechaFinVeriFactu. */
  verifactuUntil: string | null;
  since: Date;
}

/** The taxpayer's current chain, held while its mode changes. */
export interface ModeHeld extends StoredMode {
  chainId: string;
  /** When its last record was generated (null for an empty chain): VERI*FACTU binds once used. */
  lastRecordAt: Date | null;
}

export const operatingModeStore = {
  /**
   * The mode of the taxpayer's chain in its current environment, the chain row locked (FOR NO KEY UPDATE, as appends
   * lock it) until the transaction ends: no record is appended while the mode changes.
   */
  async lockCurrent(tx: DbOrTx, taxpayerId: string): Promise<ModeHeld | undefined> {
    const [row] = await tx
      .select({
        chainId: chains.id,
        mode: chains.operatingMode,
        verifactuUntil: chains.verifactuUntil,
        since: chains.modeSince,
        lastInvoiceId: chains.lastInvoiceId,
      })
      .from(chains)
      .innerJoin(taxpayers, and(eq(taxpayers.id, chains.taxpayerId), eq(taxpayers.isProduction, chains.isProduction)))
      // The real chain: a sandbox taxpayer's scenario chain (decision 0040) has no mode of its own to declare.
      .where(and(eq(chains.taxpayerId, taxpayerId), eq(chains.scenario, false)))
      .for('no key update', { of: chains });
    if (!row) return undefined;
    const [last] = row.lastInvoiceId
      ? await tx.select({ at: invoices.generatedAt }).from(invoices).where(eq(invoices.id, row.lastInvoiceId))
      : [];
    return { chainId: row.chainId, mode: row.mode, verifactuUntil: row.verifactuUntil, since: row.since, lastRecordAt: last?.at ?? null };
  },

  /** A new mode: its version moves, so an append built in the mode before is not written (its compare-and-swap). */
  async set(tx: DbOrTx, chainId: string, next: StoredMode): Promise<void> {
    await tx
      .update(chains)
      .set({
        operatingMode: next.mode,
        verifactuUntil: next.verifactuUntil,
        modeSince: next.since,
        modeVersion: sql`${chains.modeVersion} + 1`,
      })
      .where(eq(chains.id, chainId));
  },
};
