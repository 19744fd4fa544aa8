import { Counter, Histogram, Registry } from 'prom-client';

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
