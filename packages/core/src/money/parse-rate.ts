export type ParsedRate = { ok: true; hundredths: bigint; literal: string } | { ok: false };

// Tipo2.2Type in the XSD: up to 3 integer digits and 2 decimals, never negative.
const RATE_PATTERN = /^(?:0|[1-9]\d{0,2})(?:\.\d{1,2})?$/;

/** Parses a percentage ("21", 7.5, "5.20") into exact hundredths of a percent; literal like "21.00". */
export function parseRate(input: unknown): ParsedRate {
  const text = typeof input === 'number' ? String(input) : typeof input === 'string' ? input : undefined;
  if (text === undefined) return { ok: false };
  if (!RATE_PATTERN.test(text)) return { ok: false };
  // No leading zero (the pattern): the literal is the text's own digits, as formatRate(hundredths) writes them.
  const dot = text.indexOf('.');
  const units = dot < 0 ? text : text.slice(0, dot);
  const fraction = dot < 0 ? '00' : text.slice(dot + 1).padEnd(2, '0');
  return { ok: true, hundredths: BigInt(units + fraction), literal: `${units}.${fraction}` };
}

/** Two-decimal literal of a rate in hundredths of a percent: 2100n -> "21.00", 750n -> "7.50". */
export function formatRate(hundredths: bigint): string {
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')}`;
}
