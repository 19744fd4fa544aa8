import { censusSection } from './census-markdown';
import { floorSection } from './floor-markdown';
import { scaleSection } from './scale-markdown';
import type { BaselineResult, BenchResults, DrainTimings, RegistrationResult, TargetResult } from './result-types';
import { MODES, WORKLOAD_NAMES } from '../workloads/workloads';
import { profileCommand } from './miss-profiles';
import type { ProfileSummary } from './profile-summary';
import { ratio } from './stats';

const dash = '–';

function num(n: number | null | undefined, digits = 0): string {
  if (n === null || n === undefined) return dash;
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

function chainCell(r: { chain: RegistrationResult['chain'] }): string {
  return r.chain.ok ? `ok (${num(r.chain.chains)} chains, ${num(r.chain.records)} records)` : `**BROKEN**: ${r.chain.problems.join('; ')}`;
}

/** A bare-PostgreSQL rate and the API's rate as a share of it. */
function shareCell(rate: number | null | undefined, bare: BaselineResult | undefined): string {
  const base = bare?.summary?.registrationsPerSecond ?? null;
  if (base === null) return dash;
  const share = ratio(rate, base);
  return `${num(base)} (${share === null ? dash : num(share, 2)})`;
}

function registrationRow(r: RegistrationResult, baseline: BaselineResult | undefined, pgbench: BaselineResult | undefined): string[] {
  const head = [`${r.workload}`, r.mode];
  if (!r.available) return [...head, `not available (${r.unavailableReason ?? 'unknown'})`, ...Array<string>(10).fill(dash)];
  const s = r.summary;
  return [
    ...head,
    num(s?.registrationsPerSecond),
    num(s?.latencyMs.p50, 2),
    num(s?.latencyMs.p95, 2),
    num(s?.latencyMs.p99, 2),
    num(s?.errors),
    shareCell(s?.registrationsPerSecond, baseline),
    shareCell(s?.registrationsPerSecond, pgbench),
    `${num(r.api.peakRssMb)} / ${r.worker ? num(r.worker.peakRssMb) : dash}`,
    `${num(r.apiCpuMsPerRegistration, 3)} / ${r.worker ? num(r.workerCpuMsPerRegistration, 3) : dash} / ${num(r.postgresCpuMsPerRegistration, 3)} / ${num(r.loadCpuMsPerRegistration, 3)}`,
    r.apiCallsPerRegistration ? `${num(r.apiCallsPerRegistration.postgres, 2)} / ${num(r.apiCallsPerRegistration.redis, 2)}` : dash,
    chainCell(r),
  ];
}

const shares = (list: { name: string; share: number }[]) => list.map((x) => `${x.name} ${num(x.share * 100, 1)}%`).join('; ');

function profileLine(p: ProfileSummary, functions: number): string {
  return `**${p.file}**${p.during ? ` during ${p.during}` : ''} (${num(p.busySeconds, 1)} s busy): by owner: ${shares(p.byOwner)}. Top functions: ${shares(p.topFunctions.slice(0, functions))}.`;
}

/** Under each missed target: where its process's CPU went, or the command that profiles it. */
function missExplanations(targets: TargetResult[], profiled: boolean): string[] {
  const missed = targets.filter((t) => t.status === 'missed' && t.explainedBy?.length);
  if (!missed.length) return [];
  const out = ['### Missed targets: where the CPU went', ''];
  const listed = new Set<string>();
  for (const t of missed) {
    if (t.profiles?.length) {
      out.push(`- **${t.target}**: ${t.measured}.`);
      for (const p of t.profiles) {
        const key = `${p.file} ${p.during ?? ''}`;
        out.push(`  - ${listed.has(key) ? `**${p.file}**${p.during ? ` during ${p.during}` : ''}: as above.` : profileLine(p, 5)}`);
        listed.add(key);
      }
      continue;
    }
    const whose = [...new Set(t.explainedBy!.map((s) => (s.process === 'api' ? "the API's" : "the worker's")))].join(' and ');
    const why = profiled ? 'no profile was written for it; ' : '';
    out.push(`- **${t.target}**: ${t.measured}. ${why}\`${profileCommand(t.explainedBy!)}\` lists ${whose} CPU profile here.`);
  }
  out.push('');
  return out;
}

function baselineRows(driver: string, list: BaselineResult[]): string[][] {
  return list.map((b) => [
    b.workload,
    driver,
    num(b.connections),
    num(b.taxpayers),
    num(b.recordsPerTransaction),
    num(b.summary?.registrationsPerSecond),
    num(b.summary?.latencyMs.p50, 2),
    num(b.summary?.latencyMs.p95, 2),
    num(b.summary?.latencyMs.p99, 2),
    num(b.summary?.errors),
  ]);
}

function drainRow(name: string, d: DrainTimings): string[] {
  return [
    name,
    num(d.records),
    num(d.taxpayers),
    num(d.workers),
    num(d.messages),
    num(d.firstSendToLastAcceptedMs),
    num(d.startedWorkerToLastAcceptedMs),
    num(d.recordsPerSecond),
    num(d.wallSeconds, 2),
    Object.entries(d.statuses)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') + (d.settled ? '' : ' (timed out)'),
    `${num(d.workerPeakRssMb)} MB, ${num(d.workerCpuMsPerRecord, 3)} ms/record`,
    `${num(d.simulatorCpuMsPerRecord, 3)} ms/record`,
    d.chain.ok ? 'ok' : `**BROKEN**: ${d.chain.problems.join('; ')}`,
  ];
}

/** The run as a markdown document: machine, registration table next to the bare-PostgreSQL baseline, submission, targets. */
export function renderMarkdown(results: BenchResults): string {
  const m = results.machine;
  const out: string[] = [];
  out.push(`# Benchmark ${results.startedAt}${results.smoke ? ' (SMOKE RUN: tiny counts, not a measurement)' : ''}`);
  out.push('');
  out.push(
    `Machine: ${m.cpuModel}, ${m.cpus} CPUs, ${num(m.memoryGb, 1)} GB; ${m.os}; Node ${m.node}; PostgreSQL ${m.postgres}; Redis ${m.redis}. ` +
      `Load average at start: ${m.loadAverageAtStart.map((l) => num(l, 2)).join(', ')}.` +
      (results.git ? ` Commit ${results.git.commit.slice(0, 12)}${results.git.dirty ? ' (with uncommitted changes)' : ''}.` : ''),
  );
  out.push('');
  out.push(`Command: \`npm run bench --${results.argv.length ? ` ${results.argv.join(' ')}` : ''}\``);
  out.push('');
  out.push('## Registration');
  out.push('');
  const baselineOf = (w: string) => results.baselines.find((b) => b.workload === w);
  const pgbenchOf = (w: string) => results.pgbench?.results.find((b) => b.workload === w);
  out.push(
    table(
      [
        'workload',
        'worker',
        'reg/s',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'errors',
        'Node baseline/s (share)',
        'pgbench/s (share)',
        'peak RSS MB API / worker',
        'CPU ms/reg API / worker / PG / load',
        'API calls/reg PG / Redis',
        'chains',
      ],
      // Each workload's two modes side by side, in the workloads' order.
      [...results.registrations]
        .sort(
          (a, b) =>
            WORKLOAD_NAMES.indexOf(a.workload) - WORKLOAD_NAMES.indexOf(b.workload) || MODES.indexOf(a.mode) - MODES.indexOf(b.mode),
        )
        .map((r) => registrationRow(r, baselineOf(r.workload), pgbenchOf(r.workload))),
    ),
  );
  const samples = results.registrations.filter((r) => r.errorSamples.length);
  if (samples.length) {
    out.push('');
    out.push('Errors seen:');
    for (const r of samples)
      for (const e of r.errorSamples) out.push(`- ${r.workload} ${r.mode}: \`${e.replace(/`/g, "'").replace(/\s+/g, ' ')}\``);
  }
  if (results.storage.length) {
    out.push('');
    out.push(
      `Stored per record (record, lines and status events, indexes included): ${results.storage.map((f) => `${f.stack} ${num(f.bytesPerRecord)} bytes over ${num(f.records)} records`).join('; ')}.`,
    );
  }
  out.push('');
  out.push('## Bare PostgreSQL baseline (lock head FOR UPDATE, insert, advance head, commit)');
  out.push('');
  const pgbenchRows = results.pgbench?.results ?? [];
  const rows = results.baselines.flatMap((b) => [
    ...baselineRows('Node (pg)', [b]),
    ...baselineRows(
      'pgbench',
      pgbenchRows.filter((p) => p.workload === b.workload),
    ),
  ]);
  out.push(
    rows.length
      ? table(['shape of', 'driver', 'connections', 'taxpayers', 'records/tx', 'records/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors'], rows)
      : 'Not run.',
  );
  if (results.baselines.length) {
    out.push('');
    out.push(
      results.pgbench?.version
        ? `pgbench ${results.pgbench.version}: custom script, prepared statements, one connection per client.`
        : `pgbench: not measured: ${results.pgbench?.notMeasured ?? 'not run'}.`,
    );
  }
  const baselineErrors = [...results.baselines, ...pgbenchRows].filter((b) => b.errorSamples.length);
  if (baselineErrors.length) {
    out.push('');
    out.push('Baseline errors seen:');
    for (const b of baselineErrors)
      for (const e of b.errorSamples) out.push(`- ${b.workload}: \`${e.replace(/`/g, "'").replace(/\s+/g, ' ')}\``);
  }
  out.push('');
  out.push(...floorSection(results.floor));
  out.push('## Submission (simulator, schema validation off)');
  out.push('');
  if (results.submission) {
    const s = results.submission;
    out.push(
      table(
        [
          'run',
          'records',
          'taxpayers',
          'workers',
          'messages',
          'first send → last accepted ms',
          'started worker → last accepted ms',
          'records/s',
          'wall s',
          'statuses',
          'workers',
          'simulator CPU',
          'chains',
        ],
        [drainRow('one taxpayer', s.oneTaxpayer), drainRow('drain', s.drain)],
      ),
    );
    if (s.signing) {
      out.push('');
      out.push(
        `Signing (worker, XAdES-EPES, 2,048-bit RSA): ${s.signing.signCpuMsPerRecord} ms CPU a record over ${s.signing.records} records, ` +
          `${s.signing.signedBytes} bytes a signed record; verifying one: ${s.signing.verifyCpuMsPerRecord} ms CPU.`,
      );
    }
    if (s.simulatorCounters) {
      out.push('');
      out.push(
        `Simulator counters: ${Object.entries(s.simulatorCounters)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
    }
  } else out.push(results.submissionError ? `Failed: ${results.submissionError}` : 'Not run.');
  out.push('');
  out.push(...scaleSection(results.scale));
  out.push(...censusSection(results.census, results.censusError));
  out.push('## Targets');
  out.push('');
  if (results.smoke) {
    out.push('Smoke run: rounds too short to judge any target; the statuses only show the report works.');
    out.push('');
  }
  out.push(
    table(
      ['target', 'measured', 'status'],
      results.targets.map((t) => [t.target, t.measured, t.status === 'met' ? 'met' : `**${t.status}**`]),
    ),
  );
  out.push('');
  out.push(...missExplanations(results.targets, results.argv.includes('--profile')));
  if (results.profiles.length) {
    out.push('## CPU profiles (self time of busy samples)');
    out.push('');
    for (const p of results.profiles) out.push(`- ${profileLine(p, 6)}`);
    out.push('');
  }
  out.push(
    results.chainsOk ? 'Every chain checked: no gap, no fork, every previous-hash link intact.' : '**A chain is broken: this run failed.**',
  );
  out.push('');
  return out.join('\n');
}
