import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';
import { round, summarizeLatencies } from '../report/stats';
import { invoiceFactory } from './invoice-body';
import type { Bound, HttpLoadSpec, LoadResult, RoundResult } from './load-spec';
import { noPhases, type AnnouncePhase } from './measure-phase';

const REQUEST_TIMEOUT_SECONDS = 30;
const MAX_ERROR_SAMPLES = 5;

type ResponseListener = (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void;

/**
 * Closed loop: each of `clients` keep-alive connections sends its next invoice as soon as the previous answer
 * arrives, so the rate is what the API sustains. Latency comes from every response's own timing
 * (autocannon's histogram keeps whole milliseconds only, too coarse for a p50 around 1 ms).
 */
export async function runHttpLoad(spec: HttpLoadSpec, announce: AnnouncePhase = noPhases): Promise<LoadResult> {
  const nextInvoice = invoiceFactory(spec.tenant, spec.numberPrefix);
  const errorSamples: string[] = [];
  let totalRegistered = 0;
  let uncertain = 0;

  async function measureRound(bound: Bound): Promise<RoundResult> {
    const latencies: number[] = [];
    let registered = 0;
    let failed = 0;
    const instance = autocannon({
      url: spec.baseUrl,
      // autocannon refuses more connections than requests.
      connections: 'count' in bound ? Math.min(spec.clients, bound.count) : spec.clients,
      pipelining: 1,
      timeout: REQUEST_TIMEOUT_SECONDS,
      ...('seconds' in bound ? { duration: bound.seconds } : { amount: bound.count }),
      requests: [
        {
          method: 'POST',
          path: '/api/v1/invoices',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${spec.tenant.apiKey}` },
          setupRequest: (request) => ({ ...request, body: JSON.stringify(nextInvoice()) }),
          onResponse: (status, body) => {
            if (status !== 201 && errorSamples.length < MAX_ERROR_SAMPLES) errorSamples.push(`HTTP ${status}: ${body.slice(0, 400)}`);
          },
        },
      ],
    });
    // Without a callback autocannon returns its tracker (an EventEmitter) made thenable; the typings show only the promise.
    (instance as unknown as EventEmitter).on('response', ((_client, status, _bytes, ms) => {
      if (status === 201) {
        registered += 1;
        latencies.push(ms);
      } else failed += 1;
    }) as ResponseListener);
    const started = performance.now();
    const result = await instance;
    const seconds = (performance.now() - started) / 1000;
    // Unanswered requests may still have been stored: those cut off by a connection error or a timeout, and
    // those in flight when a timed round ended (autocannon stops listening then).
    uncertain += result.errors + Math.max(0, result.requests.sent - (registered + failed));
    if (result.errors > 0 && errorSamples.length < MAX_ERROR_SAMPLES)
      errorSamples.push(`${result.errors} connection errors (${result.timeouts} timeouts)`);
    totalRegistered += registered;
    return {
      seconds: round(seconds, 3)!,
      requests: registered + failed,
      registered,
      errors: failed + result.errors,
      registrationsPerSecond: round(registered / seconds)!,
      latencyMs: summarizeLatencies(latencies),
    };
  }

  if (spec.warmupSeconds > 0) await measureRound({ seconds: spec.warmupSeconds });
  await announce('measuring');
  const rounds: RoundResult[] = [];
  for (let r = 0; r < spec.rounds; r += 1) rounds.push(await measureRound(spec.bound));
  await announce('measured');
  return { available: true, rounds, totalRegistered, uncertain, errorSamples };
}
