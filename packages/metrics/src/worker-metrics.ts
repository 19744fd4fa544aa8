import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Everything a worker process measures; served by its own listener (WORKER_PORT). */
export const workerRegistry = new Registry();

/**
 * Messages sent to the authority (RegFactuSistemaFacturacion) by outcome: `answered`, `message_rejected` (a Client
 * fault refused the whole message), `server_fault`, `no_answer` (transport error, timeout, unreadable answer).
 * `code`: the SOAP fault code, when there is one.
 */
export const sendsTotal = new Counter({
  name: 'vf_sends_total',
  help: 'Messages sent to the tax authority by outcome and fault code.',
  labelNames: ['outcome', 'code'] as const,
  registers: [workerRegistry],
});

/**
 * Records of each message by the status the send left them in (`accepted`, `accepted_with_warnings`, `rejected`;
 * `queued` or `error` when they must go again) and the authority's error code (CodigoErrorRegistro), if any.
 */
export const sentRecordsTotal = new Counter({
  name: 'vf_sent_records_total',
  help: 'Records sent to the tax authority, by the status the send left them in and the authority error code.',
  labelNames: ['status', 'code'] as const,
  registers: [workerRegistry],
});

/**
 * Messages of sandbox scenario records, sent to the simulator beside the service by outcome (as `vf_sends_total`):
 * a tenant's rehearsals, apart from the authority's traffic and its alerts.
 */
export const scenarioSendsTotal = new Counter({
  name: 'vf_scenario_sends_total',
  help: 'Messages of sandbox scenario records, sent to the simulator (never the tax authority), by outcome.',
  labelNames: ['outcome'] as const,
  registers: [workerRegistry],
});

/** Round trip of one message to the authority, from the request going out to its answer (or failure). */
export const sendDuration = new Histogram({
  name: 'vf_send_duration_seconds',
  help: 'Round trip of one message to the tax authority, by outcome.',
  labelNames: ['outcome'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120],
  registers: [workerRegistry],
});

/**
 * A taxpayer's sender stopping with records still waiting because it may not send yet: `waiting_time` (the
 * authority's TiempoEsperaEnvio after an answer) or `backoff` (after a failed send). `_count` says how often,
 * `_sum` how long in total; adding workers does not shorten these waits.
 */
export const flowControlWait = new Histogram({
  name: 'vf_flow_control_wait_seconds',
  help: 'Waits imposed on a sender with records still waiting, by reason (waiting_time, backoff).',
  labelNames: ['reason'] as const,
  buckets: [1, 5, 15, 30, 60, 120, 300, 900, 1800, 3600],
  registers: [workerRegistry],
});

/**
 * Webhook delivery attempts by outcome: `delivered` (2xx), `failed` (any other answer or none; retried later),
 * `gave_up` (the retry window is over). Incremented by the webhook delivery job.
 */
export const webhookDeliveriesTotal = new Counter({
  name: 'vf_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome (delivered, failed, gave_up).',
  labelNames: ['outcome'] as const,
  registers: [workerRegistry],
});

/**
 * The authority's clock minus this worker's, from the `Date` header of its last answer (seconds; positive: the
 * authority is ahead). The authority stores records more than 240 s off its clock with error 2004.
 */
export const authorityClockOffset = new Gauge({
  name: 'vf_authority_clock_offset_seconds',
  help: "The tax authority's clock minus this worker's, from the Date header of its last answer.",
  registers: [workerRegistry],
});

/** Sends stopped because the authority suspended a certificate's access (4141), by code. */
export const senderStopsTotal = new Counter({
  name: 'vf_sender_stops_total',
  help: 'Certificates whose sends were stopped because the tax authority suspended their access, by code.',
  labelNames: ['code'] as const,
  registers: [workerRegistry],
});

let countStoppedCertificates: () => Promise<number> = () => Promise.resolve(0);
let lastStoppedCount = 0;

/** How the stopped-certificates gauge counts (the worker reads PostgreSQL, where the stops are kept). */
export function countStoppedCertificatesWith(count: () => Promise<number>): void {
  countStoppedCertificates = count;
}

/** Certificates under which nothing is sent until an operator resumes them; above 0 needs the operator. */
export const stoppedCertificates = new Gauge({
  name: 'vf_sender_stopped_certificates',
  help: 'Certificates whose sends are stopped (access suspended by the tax authority) until an operator resumes them.',
  registers: [workerRegistry],
  async collect() {
    // Kept as last read when the database cannot be asked: a stop is not forgotten for a blip.
    lastStoppedCount = await countStoppedCertificates().catch(() => lastStoppedCount);
    this.set(lastStoppedCount);
  },
});
