import { collectDefaultMetrics, type Registry } from 'prom-client';

const enabled = new WeakSet<Registry>();

/** Process metrics (CPU, memory, event loop lag, GC) under their standard names; once per registry. */
export function enableDefaultMetrics(registry: Registry): void {
  if (enabled.has(registry)) return;
  enabled.add(registry);
  collectDefaultMetrics({ register: registry });
}
