import { evaluateIssueTargets } from './issue-targets';
import type { ScaleResult } from './result-types';

const scale = (over: Partial<ScaleResult> = {}, listMs = 20): ScaleResult => ({
  invoices: 1_000_000,
  fillMs: 1,
  lists: [
    { name: 'sort=-created_at', query: 'sort=-created_at', p50Ms: 3, total: 1_000_000, totalExact: false },
    { name: 'sort=-total_amount', query: 'sort=-total_amount', p50Ms: listMs, total: 1_000_000, totalExact: false },
  ],
  export: { rows: 1_000_000, bytes: 1, ms: 1 },
  verification: { records: 1_000_000, ok: true, ms: 40_000, recordsPerSecond: 25_000, apiCpuMsPerRecord: 0.03, apiPeakRssMb: 120 },
  bytesPerInvoice: 1900,
  tables: [],
  ...over,
});
const statusOf = (s: ScaleResult | null, prefix: string) => evaluateIssueTargets([], s).find((t) => t.target.startsWith(prefix));

describe('the scale targets', () => {
  it('are met by a million invoices within each bound, and name every list over the bound', () => {
    expect(statusOf(scale(), 'every documented list')).toMatchObject({
      status: 'met',
      measured: '2 of 2 within; slowest sort=-total_amount 20.0 ms',
    });
    expect(statusOf(scale(), 'a chain verified')?.status).toBe('met');
    expect(statusOf(scale(), 'at most 2,048 bytes')?.status).toBe('met');
    expect(statusOf(scale({}, 80), 'every documented list')).toMatchObject({
      status: 'missed',
      measured: '1 of 2 within; over: sort=-total_amount 80.0 ms',
    });
    const slowChain = scale({ verification: { ...scale().verification, recordsPerSecond: 15_000, ms: 66_000 } });
    expect(statusOf(slowChain, 'a chain verified')?.status).toBe('missed');
    expect(statusOf(scale({ bytesPerInvoice: 3000 }), 'at most 2,048 bytes')).toMatchObject({
      status: 'missed',
      measured: '3,000 bytes; 952 bytes over (1.46 times the bound)',
    });
  });

  it('judge signatures on a signed chain of 10,000 records: its rate, and every signature valid', () => {
    const signed = (recordsPerSecond: number, invalid = 0, records = 10_000) =>
      scale({
        signedVerification: {
          ...scale().verification,
          records,
          ms: 1_000,
          recordsPerSecond,
          signatures: { valid: 9_000 - invalid, invalid, missing: 1_000 },
        },
      });
    expect(statusOf(signed(6_000), "a chain's signatures")?.status).toBe('met');
    expect(statusOf(signed(4_000), "a chain's signatures")).toMatchObject({
      status: 'missed',
      measured: '4,000/s, 10,000 records (9,000 signatures valid, 0 invalid) in 1.0 s; 1,000/s short (0.80 of the bound)',
    });
    expect(statusOf(signed(6_000, 1), "a chain's signatures")?.status).toBe('missed');
    expect(statusOf(signed(6_000, 0, 500), "a chain's signatures")?.status).toBe('not measured');
    expect(statusOf(scale(), "a chain's signatures")?.status).toBe('not measured');
  });

  it('are not measured without the workload or at another size', () => {
    expect(statusOf(null, 'a chain verified')?.status).toBe('not measured');
    expect(statusOf(scale({ invoices: 200_000 }), 'at most 2,048 bytes')).toMatchObject({
      status: 'not measured',
      measured: '1,900 bytes (at 200,000 invoices)',
    });
  });
});
