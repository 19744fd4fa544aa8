import type { RoundResult } from '../load/load-spec';
import type { Mode, RegistrationWorkload } from '../workloads/workloads';
import type { DrainTimings, RegistrationResult, SubmissionResult } from './result-types';
import { evaluateTargets } from './targets';

const okChain = {
  chains: 1,
  records: 1,
  gaps: 0,
  forks: 0,
  brokenLinks: 0,
  headMismatches: 0,
  acknowledged: 1,
  uncertain: 0,
  ok: true,
  problems: [],
};

function round(rate: number, latency: Partial<RoundResult['latencyMs']> = {}): RoundResult {
  return {
    seconds: 10,
    requests: rate * 10,
    registered: rate * 10,
    errors: 0,
    registrationsPerSecond: rate,
    latencyMs: { p50: 1, p95: 2, p99: 3, max: 4, ...latency },
  };
}

function reg(
  workload: RegistrationWorkload,
  mode: Mode,
  summary: RoundResult | null,
  extra: Partial<RegistrationResult> = {},
): RegistrationResult {
  return {
    workload,
    mode,
    description: '',
    available: true,
    rounds: summary ? [summary] : [],
    summary,
    api: { peakRssMb: 100, cpuMs: 1 },
    worker: mode === 'worker-running' ? { peakRssMb: 150, cpuMs: 1 } : null,
    apiCpuMsPerRegistration: null,
    workerCpuMsPerRegistration: null,
    postgresCpuMsPerRegistration: null,
    chain: okChain,
    errorSamples: [],
    ...extra,
  };
}

function drain(records: number, ms: number | null, statuses: Record<string, number>): DrainTimings {
  return {
    records,
    taxpayers: 1,
    workers: 1,
    settled: true,
    statuses,
    messages: 1,
    maxRecordsPerMessage: records,
    firstSendToLastAcceptedMs: ms,
    startedWorkerToLastAcceptedMs: ms === null ? null : ms * 2,
    wallSeconds: 1,
    recordsPerSecond: null,
    workerPeakRssMb: null,
    workerCpuMsPerRecord: null,
    chain: okChain,
  };
}

const statusOf = (results: ReturnType<typeof evaluateTargets>, prefix: string) => results.find((t) => t.target.startsWith(prefix))?.status;

describe('evaluateTargets', () => {
  it('marks each target met or missed from the measured figures', () => {
    const results = evaluateTargets(
      [
        reg('wide', 'api-alone', round(3000)),
        reg('wide', 'worker-running', round(2000), { api: { peakRssMb: 160, cpuMs: 1 }, worker: { peakRssMb: 190, cpuMs: 1 } }),
        reg('hot', 'api-alone', round(1500)),
        reg('seq', 'api-alone', round(900, { p50: 1.2 })),
        reg('seq', 'worker-running', round(800)),
        reg('paced', 'worker-running', round(990, { p99: 80 })),
      ],
      null,
    );
    expect(statusOf(results, 'wide: at least')).toBe('met');
    expect(statusOf(results, 'hot: at least')).toBe('missed');
    expect(statusOf(results, 'seq: p50')).toBe('met');
    expect(statusOf(results, 'seq: worker running')).toBe('met');
    expect(statusOf(results, 'wide: worker running')).toBe('missed');
    expect(statusOf(results, 'hot: worker running')).toBe('not measured');
    expect(statusOf(results, 'paced')).toBe('met');
    expect(statusOf(results, 'API RSS')).toBe('missed');
    expect(statusOf(results, 'worker RSS')).toBe('met');
    expect(statusOf(results, '1,000 records')).toBe('not measured');
  });

  it('shows the bare-PostgreSQL rate of the same shape beside a rate target', () => {
    const bare = {
      workload: 'hot' as const,
      connections: 64,
      taxpayers: 1,
      recordsPerTransaction: 1,
      rounds: [],
      summary: round(1607),
      errorSamples: [],
    };
    const results = evaluateTargets([reg('hot', 'api-alone', round(1700))], null, [bare]);
    expect(results.find((t) => t.target.startsWith('hot: at least'))).toMatchObject({
      status: 'met',
      measured: '1,700/s (bare PostgreSQL in this run: 1,607/s)',
    });
  });

  it('does not count a low p99 when the offered 1,000 req/s was not carried', () => {
    const results = evaluateTargets([reg('paced', 'worker-running', round(400, { p99: 20 }))], null);
    expect(statusOf(results, 'paced')).toBe('missed');
  });

  it('reports a workload the API does not offer yet as not available, not as a failure', () => {
    const bulk = reg('bulk', 'api-alone', null, { available: false, unavailableReason: 'POST /api/v1/invoices/batch answered 404' });
    const results = evaluateTargets([bulk], null);
    expect(results.find((t) => t.target.startsWith('bulk: 1,000'))).toMatchObject({
      status: 'not available',
      measured: expect.stringContaining('404'),
    });
  });

  it('judges the submission target only on 1,000 records, all accepted', () => {
    const sub = (one: DrainTimings): SubmissionResult => ({ oneTaxpayer: one, drain: drain(10, 5, {}), simulatorCounters: null });
    expect(statusOf(evaluateTargets([], sub(drain(1000, 800, { accepted: 1000 }))), '1,000 records')).toBe('met');
    expect(statusOf(evaluateTargets([], sub(drain(1000, 800, { accepted: 999, rejected: 1 }))), '1,000 records')).toBe('missed');
    expect(statusOf(evaluateTargets([], sub(drain(1000, 1200, { accepted: 1000 }))), '1,000 records')).toBe('missed');
    expect(statusOf(evaluateTargets([], sub(drain(200, 100, { accepted: 200 }))), '1,000 records')).toBe('not measured');
  });

  it('judges the submission from a started worker, signing included, against 2 s', () => {
    const sub = (one: DrainTimings): SubmissionResult => ({ oneTaxpayer: one, drain: drain(10, 5, {}), simulatorCounters: null });
    const target = '1,000 records of one taxpayer from a started worker';
    expect(statusOf(evaluateTargets([], sub(drain(1000, 900, { accepted: 1000 }))), target)).toBe('met');
    expect(statusOf(evaluateTargets([], sub(drain(1000, 1100, { accepted: 1000 }))), target)).toBe('missed');
    expect(statusOf(evaluateTargets([], sub(drain(1000, 900, { accepted: 999, rejected: 1 }))), target)).toBe('missed');
    expect(
      statusOf(evaluateTargets([], sub({ ...drain(1000, 900, { accepted: 1000 }), startedWorkerToLastAcceptedMs: null })), target),
    ).toBe('not measured');
  });

  it('judges the signing step against 1.5 ms of CPU a record', () => {
    const sub = (signCpuMsPerRecord: number): SubmissionResult => ({
      oneTaxpayer: drain(1000, 800, { accepted: 1000 }),
      drain: drain(10, 5, {}),
      signing: { records: 2000, signCpuMsPerRecord, verifyCpuMsPerRecord: 2, signedBytes: 5000 },
      simulatorCounters: null,
    });
    expect(statusOf(evaluateTargets([], sub(0.6)), 'signing a record')).toBe('met');
    expect(statusOf(evaluateTargets([], sub(1.6)), 'signing a record')).toBe('missed');
    expect(statusOf(evaluateTargets([], null), 'signing a record')).toBe('not measured');
  });
});
