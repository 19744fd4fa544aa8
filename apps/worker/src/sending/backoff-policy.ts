export interface BackoffSettings {
  baseMs: number;
  maxMs: number;
}

/**
 * Delay before resending after the n-th consecutive failure (n = 0 for the first): base * 2^n, capped, with up
 * to ±20 % jitter so that taxpayers failing together (an authority outage) do not all come back at the same instant.
 */
export function backoffDelayMs(failuresBefore: number, settings: BackoffSettings, random: () => number = Math.random): number {
  const exponential = settings.baseMs * 2 ** Math.min(failuresBefore, 30);
  const capped = Math.min(exponential, settings.maxMs);
  const jittered = capped * (0.8 + 0.4 * random());
  return Math.round(Math.min(jittered, settings.maxMs));
}

/** Small random spread for jobs that wake up to look again, so a crowd of them does not hit the database at once. */
export function wakeJitterMs(delayMs: number, random: () => number = Math.random): number {
  const spread = Math.min(5_000, 250 + delayMs * 0.1);
  return Math.round(random() * spread);
}
