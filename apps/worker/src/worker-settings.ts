import { hostname } from 'node:os';
import Joi from 'joi';

/** Worker-only settings, parsed once at start-up next to the shared configuration. */
export interface WorkerSettings {
  /** Identifies this process on submissions and in lease owners. */
  workerId: string;
  /** How long a send lease lives without renewal: how soon another worker takes over from a dead one. */
  leaseTtlMs: number;
}

const schema = Joi.object({
  WORKER_ID: Joi.string().max(100),
  SENDER_LEASE_TTL_MS: Joi.number().integer().min(500).default(30_000),
}).unknown(true);

export function loadWorkerSettings(env: NodeJS.ProcessEnv = process.env): WorkerSettings {
  const { value, error } = schema.validate(env, { abortEarly: false, convert: true });
  if (error) throw new Error(`Invalid worker configuration: ${error.details.map((d) => d.message).join('; ')}`);
  return { workerId: value.WORKER_ID ?? `${hostname()}:${process.pid}`, leaseTtlMs: value.SENDER_LEASE_TTL_MS };
}
