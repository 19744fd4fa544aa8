import http from 'node:http';
import { round, summarizeLatencies } from '../report/stats';
import { invoiceFactory } from './invoice-body';
import type { Bound, HttpLoadSpec, LoadResult, RoundResult } from './load-spec';
import { noPhases, type AnnouncePhase } from './measure-phase';

const REQUEST_TIMEOUT_MS = 30_000;
const MAX_ERROR_SAMPLES = 5;
const TICK_MS = 1;
/** Seconds of offered load allowed to wait unanswered before the round stops offering more (the API is saturated). */
const MAX_BACKLOG_SECONDS = 5;

/**
 * Open-loop load at a fixed rate: request i is due at start + i / rate whatever happened to the ones before,
 * evenly spread (autocannon's rate limit sends each second's quota in a burst at its start, which would
 * measure the burst, not the rate). Up to `clients` keep-alive connections; a request due while all are busy
 * waits for one, and its latency counts from when it was due, so a slow server cannot hide its queue.
 */
export async function runPacedLoad(spec: HttpLoadSpec & { rate: number }, announce: AnnouncePhase = noPhases): Promise<LoadResult> {
  const nextInvoice = invoiceFactory(spec.tenant, spec.numberPrefix);
  const url = new URL('/api/v1/invoices', spec.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.clients });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${spec.tenant.apiKey}` };
  const errorSamples: string[] = [];
  let totalRegistered = 0;
  let uncertain = 0;

  function send(body: string): Promise<{ status: number; text: string } | Error> {
    return new Promise((resolve) => {
      const req = http.request(
        url,
        { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) }, timeout: REQUEST_TIMEOUT_MS },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          res.on('error', resolve);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', resolve);
      req.end(body);
    });
  }

  async function measureRound(bound: Bound): Promise<RoundResult> {
    const latencies: number[] = [];
    const pending: Promise<void>[] = [];
    let registered = 0;
    let failed = 0;
    const started = performance.now();
    const total = 'count' in bound ? bound.count : Math.round(bound.seconds * spec.rate);
    let issued = 0;
    let answered = 0;
    while (issued < total) {
      if (issued - answered > spec.rate * MAX_BACKLOG_SECONDS) {
        if (errorSamples.length < MAX_ERROR_SAMPLES)
          errorSamples.push(`saturated: over ${MAX_BACKLOG_SECONDS} s of requests waiting, stopped offering after ${issued} of ${total}`);
        break;
      }
      const now = performance.now();
      for (; issued < total && started + (issued * 1000) / spec.rate <= now; issued += 1) {
        const due = started + (issued * 1000) / spec.rate;
        pending.push(
          send(JSON.stringify(nextInvoice())).then((answer) => {
            answered += 1;
            if (answer instanceof Error) {
              uncertain += 1;
              failed += 1;
              if (errorSamples.length < MAX_ERROR_SAMPLES) errorSamples.push(`request failed: ${answer.message}`);
            } else if (answer.status === 201) {
              registered += 1;
              latencies.push(performance.now() - due);
            } else {
              failed += 1;
              if (errorSamples.length < MAX_ERROR_SAMPLES) errorSamples.push(`HTTP ${answer.status}: ${answer.text.slice(0, 400)}`);
            }
          }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, TICK_MS));
    }
    await Promise.all(pending);
    const seconds = (performance.now() - started) / 1000;
    totalRegistered += registered;
    return {
      seconds: round(seconds, 3)!,
      requests: registered + failed,
      registered,
      errors: failed,
      registrationsPerSecond: round(registered / seconds)!,
      latencyMs: summarizeLatencies(latencies),
    };
  }

  try {
    if (spec.warmupSeconds > 0) await measureRound({ seconds: spec.warmupSeconds });
    await announce('measuring');
    const rounds: RoundResult[] = [];
    for (let r = 0; r < spec.rounds; r += 1) rounds.push(await measureRound(spec.bound));
    await announce('measured');
    return { available: true, rounds, totalRegistered, uncertain, errorSamples };
  } finally {
    agent.destroy();
  }
}
