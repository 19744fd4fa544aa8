import { withTimeout } from './with-timeout';

/** Where a process is in its life: waiting for what it needs, serving, or shutting down. */
export type Phase = 'starting' | 'serving' | 'stopping';

export interface DependencyReport {
  /** Whether the process can do its work with its dependencies as they are now. */
  healthy: boolean;
  /** What each dependency looks like: `ok`, `unavailable`, and for the schema `current`, `outdated` or `unknown`. */
  checks: Record<string, string>;
}

export interface ReadinessReport {
  status: 'ready' | 'unavailable' | 'starting' | 'stopping';
  checks: Record<string, string>;
}

/**
 * A process's answer to "should traffic (or work) be sent here": only while serving, and only while the
 * dependencies it needs answer. Liveness is a separate question: a process waiting for its database is alive.
 */
export class Readiness {
  private current: Phase = 'starting';

  constructor(private readonly inspect: () => Promise<DependencyReport>) {}

  get phase(): Phase {
    return this.current;
  }

  serving(): void {
    if (this.current === 'starting') this.current = 'serving';
  }

  stopping(): void {
    this.current = 'stopping';
  }

  async report(): Promise<ReadinessReport & { ready: boolean }> {
    const { healthy, checks } = await this.inspect();
    const ready = this.current === 'serving' && healthy;
    const status = ready ? 'ready' : this.current === 'serving' ? 'unavailable' : this.current;
    return { ready, status, checks };
  }
}

export interface DependencyProbes {
  /** Reads the schema's state (one query): rejects when PostgreSQL cannot be reached. */
  schema: () => Promise<{ current: boolean }>;
  /** Resolves when Redis answers (a PING). */
  redis: () => Promise<unknown>;
  /** Whether this process needs Redis to do its work (a worker) or only reports it (the API). */
  redisRequired: boolean;
  /** A dependency that has not answered within this is reported unavailable. */
  timeoutMs: number;
}

/** The usual inspection: PostgreSQL reachable with the schema this code needs, and Redis (needed or reported). */
export function inspectDependencies(probes: DependencyProbes): () => Promise<DependencyReport> {
  return async () => {
    const [schema, redis] = await Promise.all([
      withTimeout(probes.schema(), probes.timeoutMs, 'schema check').then(
        (s) => (s.current ? 'current' : 'outdated'),
        () => undefined,
      ),
      withTimeout(probes.redis(), probes.timeoutMs, 'redis check').then(
        () => 'ok',
        () => 'unavailable',
      ),
    ]);
    const checks = { database: schema ? 'ok' : 'unavailable', schema: schema ?? 'unknown', redis };
    const healthy = schema === 'current' && (!probes.redisRequired || redis === 'ok');
    return { healthy, checks };
  };
}
