import { parseArgs } from 'node:util';
import {
  MODES,
  REGISTRATION_WORKLOADS,
  WORKLOAD_NAMES,
  type Mode,
  type RegistrationWorkload,
  type WorkloadName,
} from './workloads/workloads';

export interface BenchOptions {
  workloads: WorkloadName[];
  modes: Mode[];
  /** Seconds per measured round of each HTTP workload. */
  duration: Record<RegistrationWorkload, number>;
  /** Requests per round instead of a duration, where given. */
  requests: Partial<Record<RegistrationWorkload, number>>;
  /** Batches per round of the bulk workload. */
  batches: number;
  warmupSeconds: number;
  rounds: number;
  baselineSeconds: number;
  baseline: boolean;
  submissionRecords: number;
  drainRecords: number;
  drainTaxpayers: number;
  drainWorkers: number;
  /** Invoices the scale workload fills its account to. */
  scaleInvoices: number;
  /** Tax IDs in the census workload's list, and registrations of each kind (plain, warn) it times. */
  censusRows: number;
  censusRegistrations: number;
  simWaitSeconds: number;
  logLevel: string;
  keepData: boolean;
  profile: boolean;
  outDir: string;
}

export const USAGE = `npm run bench -- [options]
  --workloads LIST        ${WORKLOAD_NAMES.join(',')} (default: all)
  --modes LIST            ${MODES.join(',')} (default: both)
  --duration S|W=S,...    seconds per measured round of seq/hot/wide/paced (default 10)
  --requests N|W=N,...    a number of requests per round instead of a duration
  --batches N             bulk batches of 1,000 per round (default 10)
  --warmup S              unmeasured warm-up before each workload, seconds (default 2; bulk: 1 batch)
  --rounds N              measured rounds per workload; the median round is reported (default 1)
  --baseline-duration S   seconds per bare-PostgreSQL baseline and HTTP floor (default 5); --no-baseline skips them
  --submission-records N  records of one taxpayer for first-send-to-last-accepted (default 1000)
  --drain-records N --drain-taxpayers T --drain-workers K
                          multi-taxpayer drain with K worker processes (default 4000, 8, 2)
  --scale-invoices N      invoices the scale workload fills one account (one chain) to (default 1000000)
  --census-rows N         tax IDs in the census workload's list (default 10000)
  --census-registrations N  registrations of each kind, plain and warn, in the census workload (default 200)
  --sim-wait S            TiempoEsperaEnvio answered by the simulator (default 60, as AEAT)
  --log-level L           LOG_LEVEL of the API and workers (default info, as npm start)
  --keep-data             keep the scratch databases and queue keys for inspection
  --profile               write V8 CPU profiles of the API, workers and simulator next to the logs
  --out DIR               where results go (default bench/results)
  --smoke                 tiny counts, to check the harness itself in about a minute`;

function positive(name: string, raw: string | undefined, fallback: number, opts: { integer?: boolean; min?: number } = {}): number {
  const integer = opts.integer ?? true;
  const min = opts.min ?? (integer ? 1 : 0);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name} must be ${integer ? 'an integer' : 'a number'} >= ${min}, got "${raw}"`);
  }
  return value;
}

function list<T extends string>(name: string, raw: string | undefined, allowed: readonly T[]): T[] {
  if (raw === undefined) return [...allowed];
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = items.filter((item) => !allowed.includes(item as T));
  if (unknown.length || items.length === 0)
    throw new Error(`--${name}: unknown ${unknown.join(', ') || '(empty)'}; choose from ${allowed.join(', ')}`);
  return allowed.filter((a) => items.includes(a));
}

/** "10" applies to every workload; "seq=5,wide=20" to the named ones, the rest keep their default. */
export function perWorkload(
  name: string,
  raw: string | undefined,
  fallback: number | undefined,
): Partial<Record<RegistrationWorkload, number>> {
  const names = Object.keys(REGISTRATION_WORKLOADS) as RegistrationWorkload[];
  const result: Partial<Record<RegistrationWorkload, number>> = {};
  if (fallback !== undefined) for (const w of names) result[w] = fallback;
  if (raw === undefined) return result;
  if (!raw.includes('=')) {
    const value = positive(name, raw, 0, { integer: false, min: Number.MIN_VALUE });
    for (const w of names) result[w] = value;
    return result;
  }
  for (const part of raw.split(',')) {
    const [w, v] = part.split('=').map((s) => s.trim());
    if (!names.includes(w as RegistrationWorkload)) throw new Error(`--${name}: unknown workload "${w}"; choose from ${names.join(', ')}`);
    result[w as RegistrationWorkload] = positive(name, v, 0, { integer: false, min: Number.MIN_VALUE });
  }
  return result;
}

export function parseBenchOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      workloads: { type: 'string' },
      modes: { type: 'string' },
      duration: { type: 'string' },
      requests: { type: 'string' },
      batches: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      'baseline-duration': { type: 'string' },
      'no-baseline': { type: 'boolean' },
      'submission-records': { type: 'string' },
      'drain-records': { type: 'string' },
      'drain-taxpayers': { type: 'string' },
      'drain-workers': { type: 'string' },
      'scale-invoices': { type: 'string' },
      'census-rows': { type: 'string' },
      'census-registrations': { type: 'string' },
      'sim-wait': { type: 'string' },
      'log-level': { type: 'string' },
      'keep-data': { type: 'boolean' },
      profile: { type: 'boolean' },
      out: { type: 'string' },
      smoke: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) throw new Error(USAGE);
  const smoke = values.smoke === true;
  const requests = perWorkload('requests', values.requests, undefined);
  for (const [w, n] of Object.entries(requests)) {
    if (!Number.isInteger(n)) throw new Error(`--requests for ${w} must be an integer`);
  }
  const logLevel = values['log-level'] ?? 'info';
  if (!['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'].includes(logLevel))
    throw new Error(`--log-level: unknown level "${logLevel}"`);
  return {
    workloads: list('workloads', values.workloads, WORKLOAD_NAMES),
    modes: list('modes', values.modes, MODES),
    duration: perWorkload('duration', values.duration, smoke ? 2 : 10) as Record<RegistrationWorkload, number>,
    requests,
    batches: positive('batches', values.batches, smoke ? 2 : 10),
    warmupSeconds: positive('warmup', values.warmup, smoke ? 0.5 : 2, { integer: false }),
    rounds: positive('rounds', values.rounds, 1),
    baselineSeconds: positive('baseline-duration', values['baseline-duration'], smoke ? 1 : 5, { integer: false, min: 0.1 }),
    baseline: values['no-baseline'] !== true,
    submissionRecords: positive('submission-records', values['submission-records'], smoke ? 200 : 1000),
    drainRecords: positive('drain-records', values['drain-records'], smoke ? 400 : 4000),
    drainTaxpayers: positive('drain-taxpayers', values['drain-taxpayers'], smoke ? 4 : 8),
    drainWorkers: positive('drain-workers', values['drain-workers'], 2),
    scaleInvoices: positive('scale-invoices', values['scale-invoices'], smoke ? 5000 : 1_000_000, { min: 2 }),
    censusRows: positive('census-rows', values['census-rows'], smoke ? 500 : 10_000),
    censusRegistrations: positive('census-registrations', values['census-registrations'], smoke ? 10 : 200),
    simWaitSeconds: positive('sim-wait', values['sim-wait'], 60, { min: 0 }),
    logLevel,
    keepData: values['keep-data'] === true,
    profile: values.profile === true,
    outDir: values.out ?? 'bench/results',
  };
}
