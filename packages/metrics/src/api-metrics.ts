import { Counter, Histogram, Registry } from 'prom-client';

/** Everything the API process measures itself; the backlog gauges are added per scrape (apps/api/src/metrics). */
export const apiRegistry = new Registry();

/**
 * Invoice registrations by result: `created`, or the problem `code` the API answered with (`validation_failed`,
 * `duplicate_invoice`, `quota_exceeded`, `taxpayer_not_found`, `system_not_found`, `internal_error`, ...).
 */
export const registrationsTotal = new Counter({
  name: 'vf_registrations_total',
  help: 'Invoice registrations by result: created, or the problem code of the refusal.',
  labelNames: ['result'] as const,
  registers: [apiRegistry],
});

/** Request latency by Express route pattern (`/api/v1/invoices/:id`), never the raw URL. */
export const httpRequestDuration = new Histogram({
  name: 'vf_http_request_duration_seconds',
  help: 'HTTP request latency by method, Express route pattern and status code.',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [apiRegistry],
});
