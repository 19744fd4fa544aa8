/** Latency summary in milliseconds; null when nothing was measured. */
export interface LatencySummary {
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

/**
 * Nearest-rank percentile of values sorted ascending: the smallest value with at least p% of the values at or
 * below it. Never interpolates, so every reported latency is one that a client actually saw.
 */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  if (p <= 0) return sorted[0];
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, rank) - 1];
}

export function summarizeLatencies(values: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(values).sort();
  const list = Array.from(sorted);
  return {
    p50: round(percentile(list, 50), 2),
    p95: round(percentile(list, 95), 2),
    p99: round(percentile(list, 99), 2),
    max: round(percentile(list, 100), 2),
  };
}

export function round(value: number | null, digits = 1): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** a / b, or null when either side is missing or b is zero. */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a === null || a === undefined || b === null || b === undefined || b === 0) return null;
  return round(a / b, 3);
}

/** The item with the median value (the lower middle for an even count), so a reported round is a real one. */
export function medianBy<T>(items: readonly T[], value: (item: T) => number): T | null {
  if (items.length === 0) return null;
  const sorted = [...items].sort((a, b) => value(a) - value(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
