import type { LatencySummary } from '../report/stats';

/** The tenant a load runs as: an API key, a computer system and the taxpayers invoices are spread over. */
export interface Tenant {
  apiKey: string;
  systemId: string;
  taxpayerIds: string[];
}

/** How long one measured round lasts: a number of seconds, or a number of requests (batches for bulk). */
export type Bound = { seconds: number } | { count: number };

/**
 * HTTP registrations, one invoice per request over `clients` keep-alive connections: closed loop with
 * autocannon, or open loop at a fixed `rate`.
 */
export interface HttpLoadSpec {
  kind: 'http';
  baseUrl: string;
  tenant: Tenant;
  clients: number;
  /** Requests per second offered, evenly spaced, over all connections; unset = as fast as the API answers. */
  rate?: number;
  /** Prefix that keeps invoice numbers unique across workloads (the simulator remembers numbers per NIF). */
  numberPrefix: string;
  warmupSeconds: number;
  rounds: number;
  bound: Bound;
}

/** Batches of invoices through POST /api/v1/invoices/batch. */
export interface BulkLoadSpec {
  kind: 'bulk';
  baseUrl: string;
  tenant: Tenant;
  clients: number;
  batchSize: number;
  numberPrefix: string;
  warmupBatches: number;
  rounds: number;
  bound: Bound;
}

/** The same append transaction on bare PostgreSQL: lock the head FOR UPDATE, insert, advance the head, commit. */
export interface BaselineLoadSpec {
  kind: 'baseline';
  databaseUrl: string;
  /** Schema of its own for the scratch tables, so baselines never touch the service's tables. */
  schema: string;
  connections: number;
  taxpayers: number;
  /** Records appended per transaction: 1, or the batch size for the bulk baseline. */
  recordsPerTransaction: number;
  warmupSeconds: number;
  rounds: number;
  seconds: number;
}

export type LoadSpec = HttpLoadSpec | BulkLoadSpec | BaselineLoadSpec;

/** One measured round, as the load process saw it. */
export interface RoundResult {
  seconds: number;
  /** Requests (or transactions) answered, successful or not. */
  requests: number;
  /** Invoices (or records) registered. */
  registered: number;
  /** Failed requests or items: non-2xx answers, connection errors, timeouts, failed batch items. */
  errors: number;
  registrationsPerSecond: number;
  /** Per request (per batch for bulk, per transaction for the baseline). */
  latencyMs: LatencySummary;
}

export interface LoadResult {
  available: boolean;
  /** Why the workload could not run (e.g. the batch endpoint answered 404). */
  unavailableReason?: string;
  rounds: RoundResult[];
  /** Everything registered, warm-up included: what the chains must hold. */
  totalRegistered: number;
  /** Requests that failed in a way that leaves unknown whether the server stored them (timeouts, resets). */
  uncertain: number;
  /** A few failed answers, to tell what went wrong. */
  errorSamples: string[];
  /**
   * CPU the load-generator process spent during the measured rounds, read by the harness from /proc (it shares the
   * cores with what it measures); absent when the load ran in the harness's own process (tests).
   */
  loadCpuMs?: number | null;
}
