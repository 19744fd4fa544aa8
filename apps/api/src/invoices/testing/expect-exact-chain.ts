import { sql } from 'drizzle-orm';
import { computeRegistrationHash, toAeatDate } from '@vf/core';
import type { DbOrTx } from '@vf/db';

export interface ChainRecordRow {
  id: string;
  chain_seq: number;
  hash: string;
  previous_hash: string | null;
  previous_invoice_id: string | null;
  issuer_nif: string;
  invoice_number: string;
  invoice_date: string;
  invoice_type: string;
  total_amount: string;
  total_tax_amount: string;
  generated_at: string;
  generated_at_literal: string;
  created_at: string;
}

/**
 * Asserts that the taxpayer's current chain is exact: positions 1..n without a gap or a fork, each record linked to
 * the one before, timestamps never going back, every huella recomputing from the stored values, and the chain head
 * agreeing. Returns the records in chain order.
 */
export async function expectExactChain(db: DbOrTx, taxpayerId: string): Promise<ChainRecordRow[]> {
  const { rows } = await db.execute(sql`
    SELECT i.id, i.chain_seq, i.hash, i.previous_hash, i.previous_invoice_id, i.issuer_nif, i.invoice_number, i.invoice_date::text AS invoice_date,
           i.invoice_type, i.total_amount, i.total_tax_amount, i.generated_at, i.generated_at_literal, i.created_at
    FROM invoices i JOIN chains c ON c.id = i.chain_id JOIN taxpayers t ON t.id = c.taxpayer_id AND t.is_production = c.is_production
    WHERE t.id = ${taxpayerId} ORDER BY i.chain_seq`);
  const chain = rows as unknown as ChainRecordRow[];
  expect(chain.map((r) => r.chain_seq)).toEqual(chain.map((_, i) => i + 1));
  for (const [i, r] of chain.entries()) {
    const before = chain[i - 1];
    expect(r.previous_invoice_id).toBe(before?.id ?? null);
    expect(r.previous_hash).toBe(before?.hash ?? null);
    if (before) expect(Date.parse(r.generated_at)).toBeGreaterThanOrEqual(Date.parse(before.generated_at));
    const recomputed = computeRegistrationHash({
      issuerNif: r.issuer_nif,
      invoiceNumber: r.invoice_number,
      invoiceDate: toAeatDate(r.invoice_date),
      invoiceType: r.invoice_type,
      totalTax: r.total_tax_amount,
      total: r.total_amount,
      previousHash: r.previous_hash ?? undefined,
      generatedAt: r.generated_at_literal,
    });
    expect(recomputed).toBe(r.hash);
  }
  const head = await db.execute<{ chain_length: number; last_invoice_id: string | null }>(sql`
    SELECT c.chain_length, c.last_invoice_id FROM chains c JOIN taxpayers t ON t.id = c.taxpayer_id AND t.is_production = c.is_production
    WHERE t.id = ${taxpayerId}`);
  expect(head.rows[0]).toEqual({ chain_length: chain.length, last_invoice_id: chain[chain.length - 1]?.id ?? null });
  return chain;
}
