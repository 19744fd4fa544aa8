/** Past this, a clock is too far from the authority's: it stores records more than 240 s off its own clock with 2004. */
export const CLOCK_WARNING_SECONDS = 60;

export interface AuthorityClock {
  /** The authority's clock minus ours, in whole seconds (positive: the authority is ahead). */
  offsetSeconds: number;
  /** Past CLOCK_WARNING_SECONDS: our FechaHoraHusoGenRegistro risks error 2004 until the clock is synchronised. */
  tooFar: boolean;
}

/**
 * The authority's clock against ours, from an answer's `Date` header (whole seconds, so an offset under a second reads
 * as 0 or ±1); undefined when the header is not a date.
 */
export function checkAuthorityClock(dateHeader: string, receivedAt: Date): AuthorityClock | undefined {
  const authority = Date.parse(dateHeader);
  if (Number.isNaN(authority)) return undefined;
  const offsetSeconds = Math.round((authority - receivedAt.getTime()) / 1000);
  return { offsetSeconds, tooFar: Math.abs(offsetSeconds) > CLOCK_WARNING_SECONDS };
}
