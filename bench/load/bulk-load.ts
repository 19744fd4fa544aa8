import { round, summarizeLatencies } from '../report/stats';
import { invoiceFactory } from './invoice-body';
import type { Bound, BulkLoadSpec, LoadResult, RoundResult } from './load-spec';
import { noPhases, type AnnouncePhase } from './measure-phase';

const MAX_ERROR_SAMPLES = 5;

/** Answers that mean the API has no batch endpoint (yet): the workload is reported as not available. */
export const NOT_AVAILABLE_STATUSES = [404, 405];

/**
 * How many items of a batch answer were registered. 2xx other than 207 means all of them; 207 Multi-Status
 * carries one result per item, in order, each with its own `status` (or a problem `code` when it failed).
 */
export function registeredInBatch(status: number, body: unknown, size: number): number {
  if (status < 200 || status >= 300) return 0;
  if (status !== 207) return size;
  const items = itemsOf(body);
  if (!items) return 0;
  return items.filter((item) => {
    if (!item || typeof item !== 'object') return false;
    const s = (item as { status?: unknown }).status;
    if (typeof s === 'number') return s >= 200 && s < 300;
    return (item as { code?: unknown }).code === undefined && (item as { error?: unknown }).error === undefined;
  }).length;
}

function itemsOf(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (!body || typeof body !== 'object') return undefined;
  for (const key of ['results', 'data', 'items']) {
    const value = (body as Record<string, unknown>)[key];
    if (Array.isArray(value)) return value;
  }
  return undefined;
}

/** `clients` loops, each posting batches of `batchSize` invoices and waiting for the answer before the next. */
export async function runBulkLoad(spec: BulkLoadSpec, announce: AnnouncePhase = noPhases): Promise<LoadResult> {
  const nextInvoice = invoiceFactory(spec.tenant, spec.numberPrefix);
  const url = `${spec.baseUrl}/api/v1/invoices/batch`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${spec.tenant.apiKey}` };
  const errorSamples: string[] = [];
  let totalRegistered = 0;
  let uncertain = 0;
  let unavailable: string | undefined;

  async function measureRound(bound: Bound): Promise<RoundResult> {
    const latencies: number[] = [];
    let registered = 0;
    let errors = 0;
    let requests = 0;
    let issued = 0;
    const started = performance.now();
    const more = () =>
      unavailable === undefined && ('seconds' in bound ? performance.now() - started < bound.seconds * 1000 : issued < bound.count);
    await Promise.all(
      Array.from({ length: spec.clients }, async () => {
        while (more()) {
          issued += 1;
          const body = JSON.stringify(Array.from({ length: spec.batchSize }, nextInvoice));
          const t0 = performance.now();
          let res: Response;
          try {
            res = await fetch(url, { method: 'POST', headers, body });
          } catch (err) {
            uncertain += spec.batchSize;
            errors += spec.batchSize;
            if (errorSamples.length < MAX_ERROR_SAMPLES) errorSamples.push(`request failed: ${(err as Error).message}`);
            continue;
          }
          const text = await res.text();
          const ms = performance.now() - t0;
          requests += 1;
          if (NOT_AVAILABLE_STATUSES.includes(res.status)) {
            unavailable = `POST /api/v1/invoices/batch answered ${res.status}`;
            return;
          }
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          const ok = registeredInBatch(res.status, parsed, spec.batchSize);
          registered += ok;
          errors += spec.batchSize - ok;
          if (ok > 0) latencies.push(ms);
          if (ok < spec.batchSize && errorSamples.length < MAX_ERROR_SAMPLES)
            errorSamples.push(`HTTP ${res.status}: ${text.slice(0, 400)}`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    totalRegistered += registered;
    return {
      seconds: round(seconds, 3)!,
      requests,
      registered,
      errors,
      registrationsPerSecond: round(registered / seconds)!,
      latencyMs: summarizeLatencies(latencies),
    };
  }

  if (spec.warmupBatches > 0) await measureRound({ count: spec.warmupBatches });
  await announce('measuring');
  const rounds: RoundResult[] = [];
  for (let r = 0; r < spec.rounds && unavailable === undefined; r += 1) rounds.push(await measureRound(spec.bound));
  await announce('measured');
  if (unavailable !== undefined)
    return { available: false, unavailableReason: unavailable, rounds: [], totalRegistered, uncertain, errorSamples };
  return { available: true, rounds, totalRegistered, uncertain, errorSamples };
}
