import type { RoundResult } from '../load/load-spec';
import { renderMarkdown } from './markdown';
import type { BenchResults, RegistrationResult } from './result-types';

const chain = {
  chains: 100,
  records: 3000,
  gaps: 0,
  forks: 0,
  brokenLinks: 0,
  headMismatches: 0,
  acknowledged: 3000,
  uncertain: 0,
  ok: true,
  problems: [],
};
const round = (rate: number): RoundResult => ({
  seconds: 10,
  requests: rate * 10,
  registered: rate * 10,
  errors: 0,
  registrationsPerSecond: rate,
  latencyMs: { p50: 1.234, p95: 5, p99: 9, max: 12 },
});

function registration(extra: Partial<RegistrationResult>): RegistrationResult {
  return {
    workload: 'wide',
    mode: 'api-alone',
    description: '',
    available: true,
    rounds: [round(400)],
    summary: round(400),
    api: { peakRssMb: 120.4, cpuMs: 100 },
    worker: null,
    apiCpuMsPerRegistration: 2.5,
    workerCpuMsPerRegistration: null,
    postgresCpuMsPerRegistration: null,
    loadCpuMsPerRegistration: 0.05,
    apiCallsPerRegistration: { postgres: 2, redis: 0.3 },
    chain,
    errorSamples: [],
    ...extra,
  };
}

function results(registrations: RegistrationResult[], smoke = false): BenchResults {
  return {
    startedAt: '2026-11-23T10:00:00.000Z',
    finishedAt: '2026-11-23T10:05:00.000Z',
    argv: smoke ? ['--smoke'] : [],
    smoke,
    git: { commit: 'abcdef1234567890', dirty: false },
    machine: {
      cpuModel: 'Test CPU',
      cpus: 2,
      memoryGb: 24,
      os: 'Linux',
      node: 'v20',
      postgres: '15',
      redis: '7',
      loadAverageAtStart: [0.1, 0.2, 0.3],
    },
    baselines: [
      {
        workload: 'wide',
        connections: 64,
        taxpayers: 100,
        recordsPerTransaction: 1,
        rounds: [round(8000)],
        summary: round(8000),
        errorSamples: [],
      },
    ],
    pgbench: {
      version: '15.20',
      notMeasured: null,
      results: [
        {
          workload: 'wide',
          connections: 64,
          taxpayers: 100,
          recordsPerTransaction: 1,
          rounds: [round(1600)],
          summary: round(1600),
          errorSamples: [],
        },
      ],
    },
    registrations,
    submission: null,
    targets: [{ target: 'wide: at least 2,800/s (API alone)', measured: '400/s', status: 'missed' }],
    storage: [{ stack: 'api-alone', records: 3000, bytes: 6_000_000, bytesPerRecord: 2000 }],
    profiles: [],
    chainsOk: registrations.every((r) => r.chain.ok),
  };
}

describe('renderMarkdown', () => {
  it("puts each API figure next to the Node baseline's and pgbench's rates of the same shape, with the shares", () => {
    const md = renderMarkdown(results([registration({})]));
    expect(md).toContain(
      '| wide | api-alone | 400 | 1.23 | 5.00 | 9.00 | 0 | 8,000 (0.05) | 1,600 (0.25) | 120 / – | 2.500 / – / – / 0.050 | 2.00 / 0.30 | ok (100 chains, 3,000 records) |',
    );
    expect(md).toContain('| wide | Node (pg) | 64 | 100 | 1 | 8,000 | 1.23 | 5.00 | 9.00 | 0 |');
    expect(md).toContain('| wide | pgbench | 64 | 100 | 1 | 1,600 | 1.23 | 5.00 | 9.00 | 0 |');
    expect(md).toContain('pgbench 15.20: custom script');
    expect(md).toContain('Test CPU, 2 CPUs');
    expect(md).toContain('api-alone 2,000 bytes over 3,000 records');
    expect(md).toContain('| wide: at least 2,800/s (API alone) | 400/s | **missed** |');
  });

  it('shows a broken chain and an unavailable workload for what they are', () => {
    const broken = registration({
      chain: { ...chain, ok: false, gaps: 2, problems: ['2 records out of place (gap or duplicate position)'] },
    });
    const bulk = registration({
      workload: 'bulk',
      available: false,
      unavailableReason: 'POST /api/v1/invoices/batch answered 404',
      rounds: [],
      summary: null,
    });
    const md = renderMarkdown(results([broken, bulk]));
    expect(md).toContain('**BROKEN**: 2 records out of place');
    const bulkRow = md.split('\n').find((line) => line.startsWith('| bulk |'))!;
    expect(bulkRow).toContain('not available (POST /api/v1/invoices/batch answered 404)');
    const header = md.split('\n').find((line) => line.startsWith('| workload |'))!;
    expect(bulkRow.split(' | ').length).toBe(header.split(' | ').length);
    expect(md).toContain('A chain is broken: this run failed.');
  });

  it('puts the two modes of a workload side by side, in the order of the workloads', () => {
    const md = renderMarkdown(results([registration({ mode: 'worker-running' }), registration({ workload: 'seq' }), registration({})]));
    const rows = md
      .split('\n')
      .filter((line) => /^\| (seq|wide) \| (api-alone|worker-running) \|/.test(line))
      .map((line) => line.split(' | ').slice(0, 2).join(' '));
    expect(rows).toEqual(['| seq api-alone', '| wide api-alone', '| wide worker-running']);
  });

  it('says where the profiled processes spent their CPU', () => {
    const profiled = {
      ...results([registration({})]),
      profiles: [
        {
          file: 'api-alone-api.cpuprofile',
          busySeconds: 12.5,
          byOwner: [{ name: 'drizzle-orm', share: 0.27 }],
          topFunctions: [{ name: 'buildQuery (drizzle-orm:10)', share: 0.1 }],
        },
      ],
    };
    const md = renderMarkdown(profiled);
    expect(md).toContain(
      '**api-alone-api.cpuprofile** (12.5 s busy): by owner: drizzle-orm 27.0%. Top functions: buildQuery (drizzle-orm:10) 10.0%.',
    );
    expect(renderMarkdown(results([registration({})]))).not.toContain('CPU profiles');
  });

  it("gives the simulator's CPU per record of each submission run beside the workers'", () => {
    const run = {
      records: 1000,
      taxpayers: 1,
      workers: 1,
      settled: true,
      statuses: { accepted: 1000 },
      messages: 1,
      maxRecordsPerMessage: 1000,
      firstSendToLastAcceptedMs: 900,
      startedWorkerToLastAcceptedMs: 1900,
      wallSeconds: 3,
      recordsPerSecond: 1111,
      workerPeakRssMb: 150,
      workerCpuMsPerRecord: 1.5,
      simulatorCpuMsPerRecord: 0.25,
      chain: {
        chains: 1,
        records: 1000,
        gaps: 0,
        forks: 0,
        brokenLinks: 0,
        headMismatches: 0,
        acknowledged: 0,
        uncertain: 0,
        ok: true,
        problems: [],
      },
    };
    const md = renderMarkdown({ ...results([]), submission: { oneTaxpayer: run, drain: run, simulatorCounters: null } });
    expect(md).toContain('| statuses | workers | simulator CPU | chains |');
    expect(md).toContain('| accepted 1000 | 150 MB, 1.500 ms/record | 0.250 ms/record | ok |');
  });

  it('lists the HTTP floor of each shape measured, and no floor section when it was not measured', () => {
    const floor = (workload: 'seq' | 'wide', clients: number, rate: number, cpu: number | null) => ({
      workload,
      clients,
      rounds: [round(rate)],
      summary: round(rate),
      serverCpuMsPerRequest: cpu,
      loadCpuMsPerRequest: 0.21,
      peakRssMb: 61.2,
      errorSamples: workload === 'wide' ? ['HTTP 500: boom'] : [],
    });
    const md = renderMarkdown({ ...results([registration({})]), floor: [floor('seq', 1, 1765, 0.4), floor('wide', 64, 4200, null)] });
    expect(md).toContain('## HTTP floor (bare Express');
    expect(md).toContain('| seq | 1 | 1,765 | 1.23 | 5.00 | 9.00 | 0 | 0.400 | 0.210 | 61 |');
    expect(md).toContain('| wide | 64 | 4,200 | 1.23 | 5.00 | 9.00 | 0 | – | 0.210 | 61 |');
    expect(md).toContain('- wide: `HTTP 500: boom`');
    // Between the bare-PostgreSQL baselines and the submission.
    expect(md.indexOf('## HTTP floor')).toBeGreaterThan(md.indexOf('## Bare PostgreSQL baseline'));
    expect(md.indexOf('## HTTP floor')).toBeLessThan(md.indexOf('## Submission'));
    expect(renderMarkdown(results([registration({})]))).not.toContain('HTTP floor');
    expect(renderMarkdown({ ...results([registration({})]), floor: [] })).not.toContain('HTTP floor');
  });

  it('labels a smoke run as no measurement', () => {
    const md = renderMarkdown(results([registration({})], true));
    expect(md).toContain('SMOKE RUN');
    expect(md).toContain('too short to judge any target');
    expect(renderMarkdown(results([registration({})]))).not.toContain('too short to judge');
  });

  it('says when pgbench was not measured, and why, and leaves its shares empty', () => {
    const without = { ...results([registration({})]), pgbench: { version: null, notMeasured: 'pgbench not installed', results: [] } };
    const md = renderMarkdown(without);
    expect(md).toContain('pgbench: not measured: pgbench not installed.');
    expect(md).toContain('| 0 | 8,000 (0.05) | – | 120 / – |');
  });

  it('points a missed target at the command that profiles it, or lists the profile when the run had one', () => {
    const explainedBy = [{ stack: 'api-alone' as const, process: 'api' as const, workload: 'wide' as const }];
    const missed = {
      target: 'wide: API CPU per registration at most 0.4 ms',
      measured: '1.600 ms',
      status: 'missed' as const,
      explainedBy,
    };
    const unprofiled = renderMarkdown({ ...results([registration({})]), targets: [missed] });
    expect(unprofiled).toContain(
      "- **wide: API CPU per registration at most 0.4 ms**: 1.600 ms. `npm run bench -- --workloads wide --modes api-alone --profile` lists the API's CPU profile here.",
    );

    const profile = {
      file: 'api-alone-api.cpuprofile',
      during: "wide's measured rounds",
      busySeconds: 4.2,
      byOwner: [{ name: '(garbage collector)', share: 0.116 }],
      topFunctions: [{ name: 'validate (joi:12)', share: 0.049 }],
    };
    const profiled = renderMarkdown({
      ...results([registration({})]),
      argv: ['--profile'],
      targets: [
        { ...missed, profiles: [profile] },
        { ...missed, target: 'wide: at least 0.5 of pgbench', profiles: [profile] },
        { ...missed, target: 'wide: at least 0.8 of the Node baseline' },
      ],
    });
    expect(profiled).toContain("  - **api-alone-api.cpuprofile** during wide's measured rounds: as above.");
    expect(profiled).toContain(
      "  - **api-alone-api.cpuprofile** during wide's measured rounds (4.2 s busy): by owner: (garbage collector) 11.6%. Top functions: validate (joi:12) 4.9%.",
    );
    expect(profiled).toContain('no profile was written for it;');
    expect(renderMarkdown(results([registration({})]))).not.toContain('Missed targets');
  });
});
