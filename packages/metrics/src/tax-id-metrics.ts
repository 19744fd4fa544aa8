import { Counter, Histogram } from 'prom-client';
import { apiRegistry } from './api-metrics';
import { workerRegistry } from './worker-metrics';

// The API checks tax IDs one request at a time, the workers check lists: each process counts its own checks.
const registers = [apiRegistry, workerRegistry];

/** Tax IDs checked, by where the answer came from (`aeat_census`, `cache`, `vies`) and the result. */
export const taxIdChecksTotal = new Counter({
  name: 'vf_tax_id_checks_total',
  help: 'Tax IDs checked, by the source of the answer (aeat_census, cache: a census answer held, vies) and the result.',
  labelNames: ['source', 'result'] as const,
  registers,
});

/**
 * One call to the census (a VNifV2 check of up to 10,000 rows, retries included) or to VIES (one number, retries
 * included), by `outcome`: `answered`, `unknown` (some rows left unanswered: the service failed or was busy) or
 * `failed` (the call could not be made).
 */
export const taxIdServiceDuration = new Histogram({
  name: 'vf_tax_id_service_duration_seconds',
  help: 'Calls to the census (VNifV2) and VIES, retries included, by service and outcome (answered, unknown, failed).',
  labelNames: ['service', 'outcome'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
  registers,
});
