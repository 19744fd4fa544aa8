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
