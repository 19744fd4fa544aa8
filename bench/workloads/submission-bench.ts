import { readFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchOptions } from '../options';
import { runLoad } from '../load/run-load';
import type { DrainTimings, SubmissionResult } from '../report/result-types';
import { round } from '../report/stats';
import { ProcessMeter, type ProcessUsage } from '../stack/process-meter';
import type { Processes, Service } from '../stack/processes';
import { startStack, type Stack } from '../stack/stack';
import { checkChains } from './chain-check';
import { measureSigning } from './signing-bench';
import { createTenant } from './tenant';

const SETTLE_TIMEOUT_MS = 300_000;
/** Submission taxpayers' NIFs start here, past every registration workload's. */
const FIRST_NIF = 50_000;
const OPEN_STATUSES = ['pending', 'queued', 'sent'];

/** Waits until every record of these taxpayers has a final status; false when the time limit came first. */
async function settle(stack: Stack, taxpayerIds: string[]): Promise<boolean> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const { rows } = await stack.pool.query<{ open: number }>(
      `SELECT count(*)::int AS open FROM invoices WHERE taxpayer_id = ANY($1::uuid[]) AND authority_status = ANY($2::text[])`,
      [taxpayerIds, OPEN_STATUSES],
    );
    if (rows[0].open === 0) return true;
    stack.assertAlive();
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
}

/** When the earliest of these workers logged "worker started" (epoch ms); null when none did at this log level. */
function earliestStart(workers: Service[]): number | null {
  const times = workers.flatMap((w) => {
    const line = readFileSync(w.logFile, 'utf8')
      .split('\n')
      .find((l) => l.includes('"msg":"worker started"'));
    try {
      const time = line ? (JSON.parse(line) as { time?: unknown }).time : undefined;
      return typeof time === 'number' ? [time] : [];
    } catch {
      return [];
    }
  });
  return times.length > 0 ? Math.min(...times) : null;
}

/** Registers `records` invoices over the taxpayers through the API while no worker runs, then lets `workers` workers send them. */
async function drain(
  processes: Processes,
  stack: Stack,
  label: string,
  records: number,
  taxpayers: number,
  workers: number,
  firstNif: number,
): Promise<DrainTimings> {
  const tenant = await createTenant(stack.apiUrl, label, taxpayers, firstNif);
  const load = await runLoad(processes, {
    kind: 'http',
    baseUrl: stack.apiUrl,
    tenant,
    clients: Math.min(64, records),
    numberPrefix: `BENCH-${label}`,
    warmupSeconds: 0,
    rounds: 1,
    bound: { count: records },
  });
  if (load.totalRegistered !== records)
    throw new Error(`${label}: registered ${load.totalRegistered} of ${records}: ${load.errorSamples.join(' | ')}`);

  const started = performance.now();
  const spawned = await stack.startWorkers(workers);
  const meter = new ProcessMeter({ ...Object.fromEntries(spawned.map((w, i) => [`worker${i}`, w.pid])), simulator: stack.sim.pid }).start();
  let settled = false;
  let usage: ProcessUsage[] = [];
  let simulatorCpuMs: number | null = null;
  try {
    settled = await settle(stack, tenant.taxpayerIds);
  } finally {
    const { simulator, ...workerUsage } = meter.stop();
    usage = Object.values(workerUsage);
    simulatorCpuMs = simulator.cpuMs;
  }
  const workerPeakRssMb = Math.max(0, ...usage.map((u) => u.peakRssMb ?? 0)) || null;
  const workerCpuMs = usage.reduce((sum, u) => sum + (u.cpuMs ?? 0), 0);
  const wallSeconds = (performance.now() - started) / 1000;
  const workersStartedAt = earliestStart(spawned);
  await stack.stopWorkers();

  const ids = tenant.taxpayerIds;
  const sent = await stack.pool.query<{ messages: number; max_records: number | null }>(
    `SELECT count(*)::int AS messages, max(record_count)::int AS max_records FROM submissions WHERE taxpayer_id = ANY($1::uuid[])`,
    [ids],
  );
  const span = await stack.pool.query<{ ms: number | null; last_accepted: number | null }>(
    `WITH t AS (SELECT
       (SELECT max(updated_at) FROM invoices WHERE taxpayer_id = ANY($1::uuid[]) AND authority_status IN ('accepted', 'accepted_with_warnings')) AS last_accepted,
       (SELECT min(started_at) FROM submissions WHERE taxpayer_id = ANY($1::uuid[])) AS first_send)
     SELECT extract(epoch FROM last_accepted - first_send) * 1000 AS ms, extract(epoch FROM last_accepted) * 1000 AS last_accepted FROM t`,
    [ids],
  );
  const lastAccepted = span.rows[0].last_accepted === null ? null : Number(span.rows[0].last_accepted);
  const statuses = await stack.pool.query<{ status: string; n: number }>(
    `SELECT authority_status AS status, count(*)::int AS n FROM invoices WHERE taxpayer_id = ANY($1::uuid[]) GROUP BY 1 ORDER BY 1`,
    [ids],
  );
  const ms = span.rows[0].ms === null ? null : Number(span.rows[0].ms);
  return {
    records,
    taxpayers,
    workers,
    settled,
    statuses: Object.fromEntries(statuses.rows.map((r) => [r.status, r.n])),
    messages: sent.rows[0].messages,
    maxRecordsPerMessage: sent.rows[0].max_records,
    firstSendToLastAcceptedMs: round(ms, 1),
    startedWorkerToLastAcceptedMs: lastAccepted === null || workersStartedAt === null ? null : round(lastAccepted - workersStartedAt, 1),
    wallSeconds: round(wallSeconds, 2)!,
    recordsPerSecond: ms ? round((records / ms) * 1000, 1) : null,
    workerPeakRssMb: round(workerPeakRssMb, 1),
    workerCpuMsPerRecord: round(workerCpuMs / records, 3),
    simulatorCpuMsPerRecord: simulatorCpuMs === null ? null : round(simulatorCpuMs / records, 3),
    chain: await checkChains(stack.pool, ids, load.totalRegistered, load.uncertain),
  };
}

/** GET /__sim/state over mutual TLS with the platform certificate: the simulator's counters (duplicates, flow-control violations, …). */
function simulatorCounters(stack: Stack, certDir: string): Promise<Record<string, number> | null> {
  const passwords = JSON.parse(readFileSync(path.join(certDir, 'passwords.json'), 'utf8')) as Record<string, string>;
  return new Promise((resolve) => {
    const req = https.get(
      {
        host: '127.0.0.1',
        port: Number(stack.env.SIM_PORT),
        path: '/__sim/state',
        pfx: readFileSync(path.join(certDir, 'platform.p12')),
        passphrase: passwords['platform.p12'],
        ca: readFileSync(path.join(certDir, 'ca.pem')),
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          try {
            // The scalar counters only: the simulator also lists every record it registered.
            const counters = (JSON.parse(body) as { counters: Record<string, unknown> }).counters;
            resolve(Object.fromEntries(Object.entries(counters).filter(([, v]) => typeof v === 'number')) as Record<string, number>);
          } catch {
            resolve(null);
          }
        });
      },
    );
    req.on('error', () => resolve(null));
  });
}

/**
 * The submission bench, on a stack of its own whose workers start only once the records wait: 1,000 records of
 * one taxpayer sent by one worker (first send to last accepted), then a multi-taxpayer drain by K workers.
 */
export async function runSubmissionBench(
  processes: Processes,
  opts: BenchOptions,
  stackOpts: { certDir: string; logDir: string },
): Promise<SubmissionResult> {
  // Before the stack starts, so that nothing else runs on the machine meanwhile.
  const signing = measureSigning(stackOpts.certDir, 2000);
  console.log(`signing: ${signing.signCpuMsPerRecord} ms CPU a record; verifying: ${signing.verifyCpuMsPerRecord} ms`);
  const stack = await startStack(processes, {
    label: 'submission',
    ...stackOpts,
    logLevel: opts.logLevel,
    simWaitSeconds: opts.simWaitSeconds,
    workers: 0,
    keepData: opts.keepData,
    profile: opts.profile,
  });
  try {
    console.log(`submission: ${opts.submissionRecords} records of one taxpayer, one worker`);
    const oneTaxpayer = await drain(processes, stack, 'submission-one', opts.submissionRecords, 1, 1, FIRST_NIF);
    console.log(`submission: drain of ${opts.drainRecords} records over ${opts.drainTaxpayers} taxpayers, ${opts.drainWorkers} workers`);
    const drained = await drain(
      processes,
      stack,
      'submission-drain',
      opts.drainRecords,
      opts.drainTaxpayers,
      opts.drainWorkers,
      FIRST_NIF + 10,
    );
    return { oneTaxpayer, drain: drained, signing, simulatorCounters: await simulatorCounters(stack, stackOpts.certDir) };
  } finally {
    await stack.stop();
  }
}
