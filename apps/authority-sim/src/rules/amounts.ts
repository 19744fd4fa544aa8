// Exact decimal arithmetic for the authority's checks: amounts as BigInt cents, rates as BigInt
// hundredths of a percent. Never floats.

const DECIMAL = /^([+-])?(\d+)(?:\.(\d{0,2}))?$/;

/** "12.1" -> 1210n, "-5" -> -500n; undefined when the text is not a 2-decimal number. */
export function toHundredths(text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined;
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const value = BigInt(match[2]) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -value : value;
}

export function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}

export function sign(value: bigint): -1 | 0 | 1 {
  return value < 0n ? -1 : value > 0n ? 1 : 0;
}

/** |quota - base * rate / 100| <= tolerance, all in cents / hundredths of a percent, without rounding. */
export function quotaWithin(baseCents: bigint, rateHundredths: bigint, quotaCents: bigint, toleranceCents: bigint): boolean {
  // quota (cents) vs base (cents) * rate (hundredths of %) / 10000
  return abs(quotaCents * 10000n - baseCents * rateHundredths) <= toleranceCents * 10000n;
}
