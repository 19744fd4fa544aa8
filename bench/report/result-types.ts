import type { CensusResult } from '../workloads/census-bench';
import type { RoundResult } from '../load/load-spec';
import type { ProcessUsage } from '../stack/process-meter';
import type { ProfileSummary } from './profile-summary';
import type { StorageFootprint } from '../workloads/storage-footprint';
import type { ChainCheck } from '../workloads/chain-check';
import type { Mode, RegistrationWorkload, WorkloadName } from '../workloads/workloads';

export interface BaselineResult {
  workload: RegistrationWorkload;
  connections: number;
  taxpayers: number;
  recordsPerTransaction: number;
  rounds: RoundResult[];
  /** The median round by rate. */
  summary: RoundResult | null;
  errorSamples: string[];
}

/** The same append run by pgbench, when it is installed. */
export interface PgbenchBaselines {
  /** pgbench's version; null when it is not installed. */
  version: string | null;
  /** Why pgbench was not run, when it was not. */
  notMeasured: string | null;
  results: BaselineResult[];
}

/**
 * The HTTP floor of a registration shape: the same load against a bare Express server (parse the JSON body, answer
 * 201), what any registration through Express costs on the machine.
 */
export interface FloorResult {
  workload: RegistrationWorkload;
  clients: number;
  rounds: RoundResult[];
  /** The median round by rate. */
  summary: RoundResult | null;
  /** The server's CPU (user + system) per request answered in the measured rounds. */
  serverCpuMsPerRequest: number | null;
  loadCpuMsPerRequest: number | null;
  peakRssMb: number | null;
  errorSamples: string[];
}

export interface RegistrationResult {
  workload: RegistrationWorkload;
  mode: Mode;
  description: string;
  available: boolean;
  unavailableReason?: string;
  rounds: RoundResult[];
  /** The median round by rate. */
  summary: RoundResult | null;
  api: ProcessUsage;
  worker: ProcessUsage | null;
  /** CPU the process spent per invoice registered in the measured rounds, during those rounds (no warm-up). */
  apiCpuMsPerRegistration: number | null;
  workerCpuMsPerRegistration: number | null;
  /** The same for the PostgreSQL backends serving the stack's database. */
  postgresCpuMsPerRegistration: number | null;
  /** The same for the load generator, which shares the cores (absent in results written before it was recorded). */
  loadCpuMsPerRegistration?: number | null;
  /**
   * What the API sent per invoice registered in the measured rounds: statements to PostgreSQL (each a round trip) and
   * commands to Redis, counted in the API process (absent in results written before they were counted).
   */
  apiCallsPerRegistration?: { postgres: number; redis: number } | null;
  /**
   * When the measured rounds ran, in CLOCK_MONOTONIC microseconds (the clock of V8's CPU profiles); null in
   * results written before it was recorded.
   */
  measuredWindowUs?: { fromUs: number; toUs: number } | null;
  chain: ChainCheck;
  errorSamples: string[];
}

export interface DrainTimings {
  records: number;
  taxpayers: number;
  workers: number;
  /** Every record reached a final status before the time limit. */
  settled: boolean;
  statuses: Record<string, number>;
  messages: number;
  maxRecordsPerMessage: number | null;
  /** From the first SOAP send (submissions.started_at) to the last record stored as accepted (invoices.updated_at). */
  firstSendToLastAcceptedMs: number | null;
  /**
   * From the first worker's "worker started" log line (its modules loaded, its queues connected) to the last record
   * stored as accepted: also what comes before the first send, reading and signing the records. Null when the
   * workers' log level does not show that line.
   */
  startedWorkerToLastAcceptedMs: number | null;
  /** From the workers' start to every record final, as seen by the harness. */
  wallSeconds: number;
  recordsPerSecond: number | null;
  workerPeakRssMb: number | null;
  workerCpuMsPerRecord: number | null;
  /** The simulator's CPU over the same span, per record: reading the messages, judging each record, answering. */
  simulatorCpuMsPerRecord?: number | null;
  chain: ChainCheck;
}

/** The worker's signing step on its own (bench/workloads/signing-bench.ts). */
export interface SigningResult {
  records: number;
  signCpuMsPerRecord: number;
  verifyCpuMsPerRecord: number;
  /** Size of one signed record. */
  signedBytes: number;
}

export interface SubmissionResult {
  oneTaxpayer: DrainTimings;
  drain: DrainTimings;
  /** Absent in results written before records were signed. */
  signing?: SigningResult;
  /** The simulator's counters at the end (flow-control violations, duplicates, …), when it could be asked. */
  simulatorCounters: Record<string, number> | null;
}

export type TargetStatus = 'met' | 'missed' | 'not measured' | 'not available';

/** A process whose CPU profile explains a target: the API, the (first) worker or the simulator of a stack, during a workload. */
export interface ProfileSource {
  /** The stack's label: a mode, or `submission`. */
  stack: Mode | 'submission';
  process: 'api' | 'worker' | 'simulator';
  workload: WorkloadName;
}

export interface TargetResult {
  target: string;
  measured: string;
  status: TargetStatus;
  /** Whose CPU profile to read when the target is missed (none for memory and for the signing step). */
  explainedBy?: ProfileSource[];
  /** With --profile, for a missed target: the top of those profiles (cut to the workload's measured rounds). */
  profiles?: ProfileSummary[];
}

export interface MachineDescription {
  cpuModel: string;
  cpus: number;
  memoryGb: number;
  os: string;
  node: string;
  postgres: string;
  redis: string;
  loadAverageAtStart: number[];
}

/** The first page of one list query at scale. */
export interface ScaleList {
  name: string;
  query: string;
  p50Ms: number;
  total: number | null;
  /** False when `total` is an estimate (past the exact-count size). */
  totalExact: boolean | null;
}

/** The scale workload: an account filled to `invoices`, its lists, export, verification and bytes per invoice. */
/** One `GET /chain/{nif}/verification` of a whole chain. */
export interface ScaleVerification {
  records: number;
  ok: boolean;
  ms: number;
  recordsPerSecond: number;
  apiCpuMsPerRecord: number | null;
  apiPeakRssMb: number;
  /** The signatures the walk verified (absent in older results). */
  signatures?: { valid: number; invalid: number; missing: number };
  /** The first walk of the chain, which also started the API's signature threads (the signed chain only). */
  coldMs?: number;
}

export interface ScaleResult {
  invoices: number;
  fillMs: number;
  lists: ScaleList[];
  export: { rows: number; bytes: number; ms: number };
  /** The whole filled chain: hashes and links (its records have no signed record yet). */
  verification: ScaleVerification;
  /** A chain of up to 10,000 records whose sent records carry real signatures, each verified (absent in older results). */
  signedVerification?: ScaleVerification;
  /** PostgreSQL per invoice, indexes included: records, lines, status events, signed records (the sent ones). */
  bytesPerInvoice: number;
  tables: { table: string; bytes: number }[];
}

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  /** The command line's options, so a run can be repeated. */
  argv: string[];
  smoke: boolean;
  git: { commit: string; dirty: boolean } | null;
  machine: MachineDescription;
  baselines: BaselineResult[];
  /** The same baselines run by pgbench (absent in results written before pgbench was run). */
  pgbench?: PgbenchBaselines;
  /** The HTTP floor of seq and wide (absent in results written before it was measured, and with --no-baseline). */
  floor?: FloorResult[];
  registrations: RegistrationResult[];
  /** Disk used by the records (with indexes), per registration stack. */
  storage: StorageFootprint[];
  submission: SubmissionResult | null;
  /** Why the submission bench could not finish, when it could not. */
  submissionError?: string;
  targets: TargetResult[];
  /** With --profile: where the API's and the workers' CPU went, per stack (explains a missed target). */
  profiles: ProfileSummary[];
  /** The scale workload, when run. */
  scale?: ScaleResult | null;
  /** The census workload, when run, or why it failed. */
  census?: CensusResult | null;
  censusError?: string;
  /** False when any chain was broken (the run then exits non-zero). */
  chainsOk: boolean;
}
