/**
 * base × rate / 100, both exact, rounded half away from zero to whole cents.
 * cents × hundredths-of-a-percent is in units of 1/10000 cent, hence the 10000 divisor.
 */
export function percentOf(baseCents: bigint, rateHundredths: bigint): bigint {
  const scaled = baseCents * rateHundredths;
  const negative = scaled < 0n;
  const magnitude = negative ? -scaled : scaled;
  const rounded = (magnitude + 5000n) / 10000n;
  return negative ? -rounded : rounded;
}

/** |a − b| in cents. */
export function centsApart(a: bigint, b: bigint): bigint {
  return a > b ? a - b : b - a;
}
