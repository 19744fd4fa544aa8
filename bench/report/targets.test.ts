import type { RoundResult } from '../load/load-spec';
import type { Mode, RegistrationWorkload } from '../workloads/workloads';
import type { BaselineResult, DrainTimings, FloorResult, PgbenchBaselines, RegistrationResult, SubmissionResult } from './result-types';
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

function bare(workload: RegistrationWorkload, rate: number): BaselineResult {
  return { workload, connections: 64, taxpayers: 100, recordsPerTransaction: 1, rounds: [], summary: round(rate), errorSamples: [] };
}

const pgbenchOf = (...results: BaselineResult[]): PgbenchBaselines => ({ version: '15.20', notMeasured: null, results });

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
    const bare: BaselineResult = {
      workload: 'hot',
      connections: 64,
      taxpayers: 1,
      recordsPerTransaction: 1,
      rounds: [],
      summary: round(1607),
      errorSamples: [],
    };
    const results = evaluateTargets([reg('hot', 'api-alone', round(1700))], null, [bare], pgbenchOf({ ...bare, summary: round(2990) }));
    expect(results.find((t) => t.target.startsWith('hot: at least'))).toMatchObject({
      status: 'met',
      measured: '1,700/s (bare PostgreSQL in this run: Node baseline 1,607/s, pgbench 2,990/s)',
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

  it('judges the signing step against 1.5 ms of CPU a record, and verifying one against 0.2 ms', () => {
    const sub = (signCpuMsPerRecord: number, verifyCpuMsPerRecord = 2): SubmissionResult => ({
      oneTaxpayer: drain(1000, 800, { accepted: 1000 }),
      drain: drain(10, 5, {}),
      signing: { records: 2000, signCpuMsPerRecord, verifyCpuMsPerRecord, signedBytes: 5000 },
      simulatorCounters: null,
    });
    expect(statusOf(evaluateTargets([], sub(0.6)), 'signing a record')).toBe('met');
    expect(statusOf(evaluateTargets([], sub(1.6)), 'signing a record')).toBe('missed');
    expect(statusOf(evaluateTargets([], null), 'signing a record')).toBe('not measured');
    expect(statusOf(evaluateTargets([], sub(0.6, 0.15)), 'verifying a signed record')).toBe('met');
    expect(statusOf(evaluateTargets([], sub(0.6, 0.25)), 'verifying a signed record')).toBe('missed');
  });

  it("judges wide's API CPU per registration and its rate as shares of the Node baseline and of pgbench", () => {
    const wide = reg('wide', 'api-alone', round(1000), { apiCpuMsPerRegistration: 0.35 });
    const met = evaluateTargets([wide], null, [bare('wide', 1200)], pgbenchOf(bare('wide', 1900)));
    expect(met.find((t) => t.target.startsWith('wide: API CPU'))).toMatchObject({ status: 'met', measured: '0.350 ms' });
    expect(met.find((t) => t.target.startsWith('wide: at least 0.8'))).toMatchObject({
      status: 'met',
      measured: "0.83 (1,000/s of the Node baseline's 1,200/s)",
    });
    expect(met.find((t) => t.target.startsWith("wide: at least 0.5 of pgbench's"))).toMatchObject({
      status: 'met',
      measured: "0.53 (1,000/s of pgbench's 1,900/s)",
    });

    const slow = reg('wide', 'api-alone', round(500), { apiCpuMsPerRegistration: 1.6 });
    const missed = evaluateTargets([slow], null, [bare('wide', 1200)], pgbenchOf(bare('wide', 3000)));
    for (const prefix of ['wide: API CPU', 'wide: at least 0.8', "wide: at least 0.5 of pgbench's"]) {
      expect(missed.find((t) => t.target.startsWith(prefix))).toMatchObject({
        status: 'missed',
        explainedBy: [{ stack: 'api-alone', process: 'api', workload: 'wide' }],
      });
    }
  });

  it('reports the pgbench shares as not measured, with the reason, when pgbench is not installed', () => {
    const results = evaluateTargets(
      [reg('wide', 'api-alone', round(1000)), reg('wide', 'worker-running', round(900))],
      null,
      [bare('wide', 1200)],
      { version: null, notMeasured: 'pgbench not installed', results: [] },
    );
    for (const prefix of ["wide: at least 0.5 of pgbench's", 'wide, worker running']) {
      expect(results.find((t) => t.target.startsWith(prefix))).toMatchObject({
        status: 'not measured',
        measured: 'not measured: pgbench not installed',
      });
    }
    expect(statusOf(results, 'wide: at least 0.8')).toBe('met');
  });

  it('judges wide with the worker running against pgbench, explained by the API, the worker and the simulator', () => {
    const results = evaluateTargets([reg('wide', 'worker-running', round(300))], null, [], pgbenchOf(bare('wide', 3000)));
    expect(results.find((t) => t.target.startsWith('wide, worker running'))).toMatchObject({
      status: 'missed',
      measured: "0.10 (300/s of pgbench's 3,000/s)",
      explainedBy: [
        { stack: 'worker-running', process: 'api', workload: 'wide' },
        { stack: 'worker-running', process: 'worker', workload: 'wide' },
        { stack: 'worker-running', process: 'simulator', workload: 'wide' },
      ],
    });
    expect(
      statusOf(
        evaluateTargets([reg('wide', 'worker-running', round(900))], null, [], pgbenchOf(bare('wide', 3000))),
        'wide, worker running',
      ),
    ).toBe('met');
  });

  it("judges seq's p50 against 1.5 ms, its rate against 600/s and its API CPU against 0.6 ms, and bulk's median batch against 100 ms and 0.4 of the bulk baseline", () => {
    const lone = evaluateTargets([reg('seq', 'api-alone', round(650, { p50: 1.4 }), { apiCpuMsPerRegistration: 0.55 })], null);
    expect(statusOf(lone, 'seq: p50')).toBe('met');
    expect(statusOf(lone, 'seq: at least 600/s')).toBe('met');
    expect(statusOf(lone, 'seq: API CPU')).toBe('met');
    const behind = evaluateTargets([reg('seq', 'api-alone', round(345, { p50: 2.5 }), { apiCpuMsPerRegistration: 1.66 })], null);
    expect(statusOf(behind, 'seq: p50')).toBe('missed');
    expect(statusOf(behind, 'seq: at least 600/s')).toBe('missed');
    expect(statusOf(behind, 'seq: API CPU')).toBe('missed');
    // A miss says by how much.
    expect(behind.find((t) => t.target.startsWith('seq: API CPU'))?.measured).toBe('1.660 ms; 1.060 ms over (2.77 times the bound)');
    expect(behind.find((t) => t.target.startsWith('seq: at least 600/s'))?.measured).toBe('345/s; 255/s short (0.58 of the bound)');

    const bulkBase = { ...bare('bulk', 20_000), recordsPerTransaction: 1000 };
    const fast = evaluateTargets(
      [reg('bulk', 'api-alone', round(9000, { p50: 95 }))],
      null,
      [bulkBase],
      pgbenchOf({ ...bulkBase, summary: round(25_000) }),
    );
    expect(statusOf(fast, 'bulk: 1,000 invoices')).toBe('met');
    expect(fast.find((t) => t.target.startsWith('bulk: at least 0.4'))).toMatchObject({
      status: 'met',
      measured: "0.45 (9,000/s of the Node baseline's 20,000/s); 0.36 of pgbench's 25,000/s",
    });
    const slow = evaluateTargets([reg('bulk', 'api-alone', round(3000, { p50: 330 }))], null, [bulkBase]);
    expect(statusOf(slow, 'bulk: 1,000 invoices')).toBe('missed');
    expect(statusOf(slow, 'bulk: at least 0.4')).toBe('missed');
    expect(statusOf(evaluateTargets([reg('bulk', 'api-alone', round(3000))], null), 'bulk: at least 0.4')).toBe('not measured');
  });

  it('says beside each missed seq target what bare Express alone does here, when the floor was measured, and nothing beside a met one', () => {
    const floor: FloorResult = {
      workload: 'seq',
      clients: 1,
      rounds: [round(1765, { p50: 0.45 })],
      summary: round(1765, { p50: 0.45 }),
      serverCpuMsPerRequest: 0.4,
      loadCpuMsPerRequest: 0.2,
      peakRssMb: 60,
      errorSamples: [],
    };
    const measuredOf = (targets: ReturnType<typeof evaluateTargets>, prefix: string) =>
      targets.find((t) => t.target.startsWith(prefix))?.measured;
    const behind = [reg('seq', 'api-alone', round(217, { p50: 4 }), { apiCpuMsPerRegistration: 2.7 })];
    const explained = evaluateTargets(behind, null, [], undefined, null, [floor]);
    expect(measuredOf(explained, 'seq: API CPU')).toBe(
      '2.700 ms; 2.100 ms over (4.50 times the bound); bare Express alone: 0.40 ms of CPU a request here',
    );
    expect(measuredOf(explained, 'seq: p50')).toBe('4.00 ms; 2.50 ms over (2.67 times the bound); bare Express alone: p50 0.45 ms here');
    expect(measuredOf(explained, 'seq: at least 600/s')).toBe('217/s; 383/s short (0.36 of the bound); bare Express alone: 1,765/s here');
    // wide's floor says nothing of seq, and without the floor a miss says only by how much.
    const wideFloor = { ...floor, workload: 'wide' as const };
    expect(measuredOf(evaluateTargets(behind, null, [], undefined, null, [wideFloor]), 'seq: API CPU')).toBe(
      '2.700 ms; 2.100 ms over (4.50 times the bound)',
    );
    const met = evaluateTargets(
      [reg('seq', 'api-alone', round(650, { p50: 1.4 }), { apiCpuMsPerRegistration: 0.55 })],
      null,
      [],
      undefined,
      null,
      [floor],
    );
    expect(measuredOf(met, 'seq: API CPU')).toBe('0.550 ms');
  });

  it('lists each target once: the targets issue 22 replaced are gone', () => {
    const names = evaluateTargets([], null).map((t) => t.target);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => n.startsWith('seq: p50'))).toEqual(['seq: p50 at most 1.5 ms (API alone)']);
    expect(names.filter((n) => n.startsWith('bulk: 1,000'))).toEqual([
      'bulk: 1,000 invoices registered in under 100 ms (median batch, API alone)',
    ]);
  });

  it("explains the submission's times by the worker's and the simulator's profiles", () => {
    const sub: SubmissionResult = { oneTaxpayer: drain(1000, 1200, { accepted: 1000 }), drain: drain(10, 5, {}), simulatorCounters: null };
    expect(evaluateTargets([], sub).find((t) => t.target.includes('from first send'))?.explainedBy).toEqual([
      { stack: 'submission', process: 'worker', workload: 'submission' },
      { stack: 'submission', process: 'simulator', workload: 'submission' },
    ]);
  });

  it('names no profile for targets a CPU profile does not explain', () => {
    const results = evaluateTargets([reg('wide', 'worker-running', round(2000), { api: { peakRssMb: 300, cpuMs: 1 } })], null);
    expect(results.find((t) => t.target.startsWith('API RSS'))).toMatchObject({ status: 'missed' });
    expect(results.find((t) => t.target.startsWith('API RSS'))?.explainedBy).toBeUndefined();
  });
});
