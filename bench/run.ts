/**
 * `npm run bench`: registration and submission measured on a running stack (simulator, API and worker as
 * separate processes, as `npm start` runs them) from a separate load-generator process, next to what bare
 * PostgreSQL does with the same append transaction. See bench/README.md; `npm run bench -- --help`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseBenchOptions, USAGE, type BenchOptions } from './options';
import { describeMachine, gitState } from './report/machine';
import { renderMarkdown } from './report/markdown';
import { attachMissProfiles } from './report/miss-profiles';
import { summarizeProfiles } from './report/profile-summary';
import type { BenchResults, RegistrationResult, ScaleResult, SubmissionResult } from './report/result-types';
import { evaluateTargets } from './report/targets';
import { cpuMs } from './stack/process-meter';
import { Processes, ROOT } from './stack/processes';
import { waitForQuietWorker } from './stack/quiet-worker';
import { dropLiveScratch } from './stack/scratch';
import { startStack } from './stack/stack';
import { runBaselines } from './workloads/baseline-bench';
import { runHttpFloor } from './workloads/floor-bench';
import { runRegistrationWorkload } from './workloads/registration-bench';
import { runCensusBench, type CensusResult } from './workloads/census-bench';
import { runScaleBench } from './workloads/scale-bench';
import { runSubmissionBench } from './workloads/submission-bench';
import { storageFootprint, type StorageFootprint } from './workloads/storage-footprint';
import type { RegistrationWorkload } from './workloads/workloads';

const processes = new Processes();
// With the worker running, a workload starts once the worker has sent what the ones before it left behind (full
// messages, which the authority lets go at once), at most this long after they ended.
const QUIET_WORKER_LIMIT_MS = 180_000;
let certDir: string | undefined;
let keepData = false;
let interrupted = false;

/** Stops every process this run started and removes its scratch data; safe to call more than once. */
async function cleanUp(): Promise<void> {
  await processes.stopAll();
  if (!keepData) await dropLiveScratch();
  if (certDir) rmSync(certDir, { recursive: true, force: true });
}

function onSignal(signal: NodeJS.Signals): void {
  interrupted = true;
  console.error(`\n${signal}: stopping every process of the run and removing its scratch data`);
  cleanUp().finally(() => process.exit(130));
}

function summaryLine(r: RegistrationResult): string {
  if (!r.available) return `not available: ${r.unavailableReason}`;
  const s = r.summary;
  const chain = r.chain.ok ? 'chains ok' : `CHAINS BROKEN: ${r.chain.problems.join('; ')}`;
  return `${s?.registrationsPerSecond ?? '?'}/s, p50 ${s?.latencyMs.p50 ?? '?'} ms, p99 ${s?.latencyMs.p99 ?? '?'} ms, ${s?.errors ?? 0} errors, API RSS ${Math.round(r.api.peakRssMb ?? 0)} MB, ${chain}`;
}

async function runRegistrations(
  opts: BenchOptions,
  workloads: RegistrationWorkload[],
  logDir: string,
  storage: StorageFootprint[],
): Promise<RegistrationResult[]> {
  const results: RegistrationResult[] = [];
  for (const mode of opts.modes) {
    console.log(`\nstarting the stack (${mode})`);
    const stack = await startStack(processes, {
      label: mode,
      certDir: certDir!,
      logDir,
      logLevel: opts.logLevel,
      simWaitSeconds: opts.simWaitSeconds,
      workers: mode === 'worker-running' ? 1 : 0,
      keepData: opts.keepData,
      profile: opts.profile,
    });
    try {
      for (const [i, workload] of workloads.entries()) {
        const worker = stack.workers[0];
        if (worker && i > 0) {
          const wait = await waitForQuietWorker(QUIET_WORKER_LIMIT_MS, {
            cpuMs: () => cpuMs(worker.pid),
            sleep: (ms) => sleep(ms),
            now: () => Date.now(),
          });
          stack.assertAlive();
          const after = `${(wait.waitedMs / 1000).toFixed(0)} s`;
          console.log(
            `  (the worker ${wait.quiet ? `done with the earlier workloads' full messages after ${after}` : `still busy after ${after}: measured anyway`})`,
          );
        }
        process.stdout.write(`  ${workload} (${mode}): `);
        const result = await runRegistrationWorkload(processes, stack, mode, workload, opts);
        console.log(summaryLine(result));
        results.push(result);
      }
      storage.push(await storageFootprint(stack.pool, mode));
    } finally {
      await stack.stop();
    }
  }
  return results;
}

/** The scale workload on a stack of its own (API alone): an account filled, then read. */
async function runScale(opts: BenchOptions, logDir: string): Promise<ScaleResult> {
  console.log(`\nscale: one account filled to ${opts.scaleInvoices.toLocaleString('en-US')} invoices`);
  const stack = await startStack(processes, {
    label: 'scale',
    certDir: certDir!,
    logDir,
    logLevel: opts.logLevel,
    simWaitSeconds: opts.simWaitSeconds,
    workers: 0,
    keepData: opts.keepData,
    profile: opts.profile,
  });
  try {
    return await runScaleBench(stack, certDir!, opts.scaleInvoices);
  } finally {
    await stack.stop();
  }
}

/** The census workload on a stack of its own (API and one worker, which checks the lists). */
async function runCensus(opts: BenchOptions, logDir: string): Promise<{ result?: CensusResult; error?: string }> {
  console.log(`\ncensus: a list of ${opts.censusRows.toLocaleString('en-US')} NIFs, registrations with and without warn`);
  const stack = await startStack(processes, {
    label: 'census',
    certDir: certDir!,
    logDir,
    logLevel: opts.logLevel,
    simWaitSeconds: opts.simWaitSeconds,
    workers: 1,
    keepData: opts.keepData,
    profile: opts.profile,
  });
  try {
    return { result: await runCensusBench(stack, { rows: opts.censusRows, registrations: opts.censusRegistrations }) };
  } catch (err) {
    console.error(`census bench failed: ${(err as Error).message}`);
    return { error: (err as Error).message };
  } finally {
    await stack.stop();
  }
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  let opts: BenchOptions;
  try {
    opts = parseBenchOptions(argv);
  } catch (err) {
    if ((err as Error).message === USAGE) {
      console.log(USAGE);
      return 0;
    }
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  keepData = opts.keepData;
  const startedAt = new Date();
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const outDir = path.resolve(ROOT, opts.outDir);
  const logDir = path.join(outDir, `${stamp}-logs`);
  mkdirSync(logDir, { recursive: true });

  const machine = await describeMachine();
  console.log(
    `bench ${stamp}: ${machine.cpuModel} x${machine.cpus}, load average ${machine.loadAverageAtStart.join(' ')}; service logs in ${path.relative(ROOT, logDir)}`,
  );
  certDir = mkdtempSync(path.join(tmpdir(), 'vf-bench-certs-'));
  await processes.runToEnd('certs', 'scripts/dist/generate-test-certs.js', [certDir], process.env);

  const workloads = opts.workloads.filter((w): w is RegistrationWorkload => !['submission', 'scale', 'census'].includes(w));
  const { baselines, pgbench } =
    opts.baseline && workloads.length
      ? await runBaselines(processes, workloads, opts)
      : {
          baselines: [],
          pgbench: { version: null, notMeasured: opts.baseline ? 'no registration workload' : '--no-baseline', results: [] },
        };
  const floor = opts.baseline ? await runHttpFloor(processes, workloads, opts) : [];
  const storage: StorageFootprint[] = [];
  const registrations = workloads.length ? await runRegistrations(opts, workloads, logDir, storage) : [];

  let submission: SubmissionResult | null = null;
  let submissionError: string | undefined;
  if (opts.workloads.includes('submission')) {
    console.log('\nsubmission bench');
    try {
      submission = await runSubmissionBench(processes, opts, { certDir, logDir });
    } catch (err) {
      submissionError = (err as Error).message;
      console.error(`submission bench failed: ${submissionError}`);
    }
  }

  const scale = opts.workloads.includes('scale') ? await runScale(opts, logDir) : null;
  const census = opts.workloads.includes('census') ? await runCensus(opts, logDir) : null;

  const chains = [...registrations.map((r) => r.chain), ...(submission ? [submission.oneTaxpayer.chain, submission.drain.chain] : [])];
  const results: BenchResults = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    argv,
    smoke: argv.includes('--smoke'),
    git: gitState(ROOT),
    machine,
    baselines,
    pgbench,
    floor,
    registrations,
    storage,
    submission,
    submissionError,
    scale,
    census: census?.result ?? null,
    censusError: census?.error,
    targets: attachMissProfiles(evaluateTargets(registrations, submission, baselines, pgbench, scale, floor), registrations, logDir, ROOT),
    profiles: opts.profile ? summarizeProfiles(logDir, ROOT) : [],
    chainsOk: chains.every((c) => c.ok),
  };
  const markdown = renderMarkdown(results);
  writeFileSync(path.join(outDir, `${stamp}.json`), JSON.stringify(results, null, 2) + '\n');
  writeFileSync(path.join(outDir, `${stamp}.md`), markdown);
  console.log(`\n${markdown}`);
  console.log(`results: ${path.relative(ROOT, path.join(outDir, `${stamp}.md`))} and .json`);
  return results.chainsOk && !submissionError && !census?.error && (scale?.verification.ok ?? true) ? 0 : 1;
}

process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);
main()
  .catch((err) => {
    if (!interrupted) console.error(err);
    return 1;
  })
  .then(async (code) => {
    // After Ctrl-C the signal handler cleans up and exits; the run's own failures that follow are its echo.
    if (interrupted) return;
    await cleanUp();
    process.exit(code);
  });
