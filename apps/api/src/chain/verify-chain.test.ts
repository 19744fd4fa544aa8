import { computeCancellationHash, computeRegistrationHash } from '@vf/core';
import type { ChainRecord } from '@vf/contract';
import { verifyChain } from './verify-chain';

/** Builds a correctly chained list the way the API does: each hash over the stored literals and the previous hash. */
function chain(n: number): ChainRecord[] {
  const records: ChainRecord[] = [];
  for (let i = 1; i <= n; i++) {
    const previous = records[i - 2];
    const generatedAtLiteral = `2025-03-0${i}T10:00:00+01:00`;
    const base = {
      id: `00000000-0000-4000-8000-00000000000${i}`,
      chainSeq: i,
      recordType: 'registration',
      issuerNif: '89890001K',
      invoiceNumber: `A-${i}`,
      invoiceDate: `2025-03-0${i}`,
      invoiceType: i === n ? 'R1' : 'F1',
      totalAmount: i === n ? '-12.10' : '121.00',
      totalTaxAmount: i === n ? '-2.10' : '21.00',
      generatedAt: new Date(generatedAtLiteral),
      generatedAtLiteral,
      previousInvoiceId: previous?.id ?? null,
      previousHash: previous?.hash ?? null,
    };
    const hash = computeRegistrationHash({
      issuerNif: base.issuerNif,
      invoiceNumber: base.invoiceNumber,
      invoiceDate: `0${i}-03-2025`,
      invoiceType: base.invoiceType,
      totalTax: base.totalTaxAmount,
      total: base.totalAmount,
      previousHash: base.previousHash ?? undefined,
      generatedAt: generatedAtLiteral,
    });
    records.push({ ...base, hash });
  }
  return records;
}

const headOf = (records: ChainRecord[]) => ({ chainLength: records.length, lastHash: records.at(-1)?.hash ?? null });

describe('verifyChain', () => {
  it('verifies every record of an intact chain, negative corrective amounts included', async () => {
    const records = chain(4);
    await expect(verifyChain(records, headOf(records))).resolves.toMatchObject({ ok: true, verified: 4 });
  });

  it('accepts an empty chain whose head is empty', async () => {
    await expect(verifyChain([], { chainLength: 0, lastHash: null })).resolves.toMatchObject({ ok: true, verified: 0 });
  });

  it('finds a tampered amount at the record that was changed, not later', async () => {
    const records = chain(4);
    records[1] = { ...records[1], totalAmount: '1210.00' };
    const result = await verifyChain(records, headOf(records));
    expect(result).toMatchObject({ ok: false, verified: 1, break: { position: 2, invoiceNumber: 'A-2' } });
    expect(result.break?.problem).toMatch(/does not match the hash recomputed/);
  });

  it('finds a rewritten hash at the next record, whose previous hash no longer matches', async () => {
    const records = chain(3);
    // Rewriting a record and its own hash consistently still breaks the link from the record after it.
    const tampered = { ...records[0], totalAmount: '999.00' };
    tampered.hash = computeRegistrationHash({
      issuerNif: tampered.issuerNif,
      invoiceNumber: tampered.invoiceNumber,
      invoiceDate: '01-03-2025',
      invoiceType: 'F1',
      totalTax: tampered.totalTaxAmount,
      total: tampered.totalAmount,
      generatedAt: tampered.generatedAtLiteral,
    });
    records[0] = tampered;
    const result = await verifyChain(records, headOf(records));
    expect(result).toMatchObject({ ok: false, verified: 1, break: { position: 2, invoiceNumber: 'A-2' } });
    expect(result.break?.problem).toMatch(/previous hash .* differs from the hash of A-1/);
  });

  it('reports a missing record as a sequence gap', async () => {
    const records = chain(4);
    records.splice(2, 1);
    const result = await verifyChain(records, { chainLength: 4, lastHash: records.at(-1)!.hash });
    expect(result).toMatchObject({ ok: false, break: { position: 3, invoiceNumber: 'A-4' } });
    expect(result.break?.problem).toMatch(/sequence number is 4, expected 3/);
  });

  it('reports a record pointing at the wrong previous invoice', async () => {
    const records = chain(3);
    records[2] = { ...records[2], previousInvoiceId: records[0].id };
    const result = await verifyChain(records, headOf(records));
    expect(result.break).toMatchObject({
      position: 3,
      problem: expect.stringMatching(/does not point to the record before it \(A-2\)/),
    });
  });

  it('reports a generation time earlier than the previous record', async () => {
    const records = chain(2);
    records[1] = { ...records[1], generatedAt: new Date('2025-02-01T00:00:00Z') };
    const result = await verifyChain(records, headOf(records));
    expect(result.break).toMatchObject({
      position: 2,
      problem: expect.stringMatching(/generated .* before the record before it/),
    });
  });

  it('reports a first record that claims a predecessor', async () => {
    const records = chain(2);
    records[0] = { ...records[0], previousHash: 'A'.repeat(64) };
    const result = await verifyChain(records, headOf(records));
    expect(result.break).toMatchObject({ position: 1, problem: 'it is the first record but points to a previous record' });
  });

  it('reports a head that counts more records than the chain holds', async () => {
    const records = chain(2);
    const result = await verifyChain(records, { chainLength: 3, lastHash: records[1].hash });
    expect(result.break?.problem).toBe("the taxpayer's chain head counts 3 records, but 2 were found");
  });

  it('reports a head pointing to another record than the last one', async () => {
    const records = chain(3);
    const result = await verifyChain(records, { chainLength: 3, lastHash: records[1].hash });
    expect(result.break?.problem).toBe("the taxpayer's chain head does not point to the last record found (A-3)");
  });

  it('reads records from an async source, as the service streams them', async () => {
    const records = chain(3);
    async function* pages() {
      yield* records;
    }
    await expect(verifyChain(pages(), headOf(records))).resolves.toMatchObject({ ok: true, verified: 3 });
  });

  it('recomputes the huella of corrections and anulaciones too', async () => {
    const records = chain(3);
    const correction = { ...records[2], recordType: 'correction' };
    const last = records[1];
    const cancellation = {
      ...records[2],
      id: '00000000-0000-4000-8000-000000000009',
      chainSeq: 4,
      recordType: 'cancellation',
      previousInvoiceId: correction.id,
      previousHash: correction.hash,
      generatedAtLiteral: '2025-03-04T10:00:00+01:00',
      generatedAt: new Date('2025-03-04T10:00:00+01:00'),
    };
    cancellation.hash = computeCancellationHash({
      issuerNif: cancellation.issuerNif,
      invoiceNumber: cancellation.invoiceNumber,
      invoiceDate: '03-03-2025',
      previousHash: cancellation.previousHash,
      generatedAt: cancellation.generatedAtLiteral,
    });
    const all = [records[0], last, correction, cancellation];
    await expect(verifyChain(all, headOf(all))).resolves.toMatchObject({ ok: true, verified: 4 });
  });

  it('checks a range: its first record against the one before it, and no head unless it reaches the end', async () => {
    const records = chain(5);
    const middle = await verifyChain(records.slice(1, 3), headOf(records), { from: 2, before: records[0], to: 3 });
    expect(middle).toMatchObject({ ok: true, from: 2, verified: 2 });
    const tampered = await verifyChain([{ ...records[1], previousHash: 'F'.repeat(64) }], headOf(records), {
      from: 2,
      before: records[0],
      to: 2,
    });
    expect(tampered.break).toMatchObject({ position: 2, problem: expect.stringMatching(/previous hash/) });
    expect(await verifyChain(records.slice(3), headOf(records), { from: 4, before: records[2] })).toMatchObject({ ok: true, verified: 2 });
  });

  it('counts each signature and lists the invalid ones without stopping the walk', async () => {
    const records = chain(4);
    const verdicts = { 1: 'valid', 2: 'invalid', 3: 'missing', 4: 'valid' } as const;
    const result = await verifyChain(records, headOf(records), {
      signature: async (r) => ({ status: verdicts[r.chainSeq as 1 | 2 | 3 | 4], problems: r.chainSeq === 2 ? ['expired'] : [] }),
    });
    expect(result).toMatchObject({
      ok: false,
      verified: 4,
      signatures: { valid: 2, invalid: 1, missing: 1 },
      invalidSignatures: [{ position: 2, invoiceNumber: 'A-2', problem: 'expired' }],
    });
    expect(result.break).toBeUndefined();
  });
});
