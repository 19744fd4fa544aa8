import type { BenchOptions } from '../options';
import type { Bound, LoadResult, LoadSpec, Tenant } from '../load/load-spec';
import { runLoad } from '../load/run-load';
import type { RegistrationResult } from '../report/result-types';
import { medianBy, round } from '../report/stats';
import { BackendCpuMeter, ProcessMeter, type ProcessUsage } from '../stack/process-meter';
import type { CallCounts } from '../stack/api-call-counts';
import type { Processes } from '../stack/processes';
import type { Stack } from '../stack/stack';
import { checkChains } from './chain-check';
import { createTenant } from './tenant';
import { REGISTRATION_WORKLOADS, type Mode, type RegistrationWorkload } from './workloads';

/** CLOCK_MONOTONIC in microseconds: the clock of V8's CPU profiles, so a profile can be cut to a window. */
function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** The API's statements and Redis commands between two readings, per invoice registered in between. */
function callsPerRegistration(before: CallCounts | null, after: CallCounts | null, registered: number) {
  if (!before || !after || registered === 0) return null;
  const per = (n: number) => Math.round((n / registered) * 100) / 100;
  return { postgres: per(after.postgres - before.postgres), redis: per(after.redis - before.redis) };
}

/** Taxpayer NIFs of workload i start at i * NIFS_PER_WORKLOAD, so no two workloads share a NIF. */
export const NIFS_PER_WORKLOAD = 1000;

function loadSpec(workload: RegistrationWorkload, stack: Stack, tenant: Tenant, opts: BenchOptions): LoadSpec {
  const shape = REGISTRATION_WORKLOADS[workload];
  const common = { baseUrl: stack.apiUrl, tenant, clients: shape.clients, numberPrefix: `BENCH-${workload}`, rounds: opts.rounds };
  if (shape.kind === 'bulk') {
    return {
      kind: 'bulk',
      ...common,
      batchSize: shape.batchSize,
      warmupBatches: opts.warmupSeconds > 0 ? 1 : 0,
      bound: { count: opts.requests.bulk ?? opts.batches },
    };
  }
  const count = opts.requests[workload];
  const bound: Bound = count !== undefined ? { count } : { seconds: opts.duration[workload] };
  return { kind: 'http', ...common, rate: 'rate' in shape ? shape.rate : undefined, warmupSeconds: opts.warmupSeconds, bound };
}

/**
 * One registration workload against a running stack: a fresh account and taxpayers, a warm-up, the measured
 * rounds from the load-generator process, the API's (and worker's) peak RSS over it all, their CPU and the
 * database backends' during the measured rounds only, then every chain of the workload's taxpayers checked in
 * the database.
 */
export async function runRegistrationWorkload(
  processes: Processes,
  stack: Stack,
  mode: Mode,
  workload: RegistrationWorkload,
  opts: BenchOptions,
): Promise<RegistrationResult> {
  const shape = REGISTRATION_WORKLOADS[workload];
  const index = Object.keys(REGISTRATION_WORKLOADS).indexOf(workload);
  const noVerifactu = 'noVerifactu' in shape && shape.noVerifactu;
  const tenant = await createTenant(stack.apiUrl, `${mode}-${workload}`, shape.taxpayers, index * NIFS_PER_WORKLOAD, noVerifactu);
  const worker = stack.workers[0];
  const postgres = new BackendCpuMeter(stack.pool, stack.databaseName);
  const meter = new ProcessMeter({ api: stack.api.pid, ...(worker && { worker: worker.pid }) }).start();
  let usage: Record<string, ProcessUsage>;
  let load: LoadResult;
  let postgresCpuMs: number | null = null;
  let callsBefore: CallCounts | null = null;
  let callsAfter: CallCounts | null = null;
  const window = { fromUs: 0, toUs: 0 };
  try {
    // CPU is read when the load generator's warm-up is over and again after its last measured round.
    load = await runLoad(processes, loadSpec(workload, stack, tenant, opts), {
      measuring: async () => {
        callsBefore = await stack.apiCalls();
        meter.markCpuStart();
        await postgres.start();
        window.fromUs = monotonicUs();
      },
      measured: async () => {
        window.toUs = monotonicUs();
        meter.markCpuEnd();
        postgresCpuMs = await postgres.stop();
        callsAfter = await stack.apiCalls();
      },
    });
  } finally {
    usage = meter.stop();
  }
  stack.assertAlive();
  const chain = await checkChains(stack.pool, tenant.taxpayerIds, load.totalRegistered, load.uncertain);
  const measured = load.rounds.reduce((sum, r) => sum + r.registered, 0);
  const perRegistration = (cpu: number | null | undefined) => (cpu != null && measured > 0 ? round(cpu / measured, 3) : null);
  return {
    workload,
    mode,
    description: shape.description,
    available: load.available,
    unavailableReason: load.unavailableReason,
    rounds: load.rounds,
    summary: medianBy(load.rounds, (r) => r.registrationsPerSecond),
    api: usage.api,
    worker: usage.worker ?? null,
    apiCpuMsPerRegistration: perRegistration(usage.api.cpuMs),
    workerCpuMsPerRegistration: perRegistration(usage.worker?.cpuMs),
    postgresCpuMsPerRegistration: perRegistration(postgresCpuMs),
    loadCpuMsPerRegistration: perRegistration(load.loadCpuMs),
    apiCallsPerRegistration: callsPerRegistration(callsBefore, callsAfter, measured),
    measuredWindowUs: window.toUs > window.fromUs ? window : null,
    chain,
    errorSamples: load.errorSamples,
  };
}
