import { hostname } from 'node:os';
import Joi from 'joi';

/** Worker-only settings, parsed once at start-up next to the shared configuration. */
export interface WorkerSettings {
  /** Identifies this process on submissions and in lease owners. */
  workerId: string;
  /** How long a send lease lives without renewal: how soon another worker takes over from a dead one. */
  leaseTtlMs: number;
  /** Port of this process's `GET /metrics` listener (operator Basic auth); 0: none. */
  metricsPort?: number;
}

const schema = Joi.object({
  WORKER_ID: Joi.string().max(100),
  SENDER_LEASE_TTL_MS: Joi.number().integer().min(500).default(30_000),
  WORKER_METRICS_PORT: Joi.number().port().default(0),
}).unknown(true);

export function loadWorkerSettings(env: NodeJS.ProcessEnv = process.env): WorkerSettings {
  const { value, error } = schema.validate(env, { abortEarly: false, convert: true });
  if (error) throw new Error(`Invalid worker configuration: ${error.details.map((d) => d.message).join('; ')}`);
  // Metrics are for the operator only, like Bull Board: without its credentials there is no listener to open.
  if (value.WORKER_METRICS_PORT > 0 && !(value.ADMIN_USER && value.ADMIN_PASSWORD)) {
    throw new Error('Invalid worker configuration: WORKER_METRICS_PORT needs ADMIN_USER and ADMIN_PASSWORD (metrics are served to the operator only)');
  }
  return { workerId: value.WORKER_ID ?? `${hostname()}:${process.pid}`, leaseTtlMs: value.SENDER_LEASE_TTL_MS, metricsPort: value.WORKER_METRICS_PORT };
}
