export type ParsedAmount = { ok: true; cents: bigint; literal: string } | { ok: false };

// The XSD allows a sign, 12 integer digits and 2 decimals; leading zeros are refused by the authority (AEAT
// web-service description §6.8). A "+" is taken as the authority takes it and left out of the literal, which is how
// the service writes every amount (and hashes it: the huella is computed on the literal as written).
const MINUS = 0x2d;
const PLUS = 0x2b;
const AMOUNT_PATTERN = /^[+-]?(?:0|[1-9]\d{0,11})(?:\.\d{1,2})?$/;

/**
 * Parses a money amount from a JSON number or string into exact cents.
 * A number goes through String(n), the shortest round-trip text, which is exact for the
 * 14 significant digits this format allows; anything with more precision fails the pattern.
 */
export function parseAmount(input: unknown): ParsedAmount {
  const text = typeof input === 'number' ? String(input) : typeof input === 'string' ? input : undefined;
  if (text === undefined) return { ok: false };
  if (!AMOUNT_PATTERN.test(text)) return { ok: false };
  // The pattern leaves no leading zero, so the literal is the text's own digits (what formatCents(cents) writes),
  // without dividing the cents back; and the parts are cut from the text, with no match array: every amount of
  // every invoice passes here.
  const sign = text.charCodeAt(0);
  const start = sign === MINUS || sign === PLUS ? 1 : 0;
  const dot = text.indexOf('.');
  const units = dot < 0 ? text.slice(start) : text.slice(start, dot);
  const fraction = dot < 0 ? '00' : text.slice(dot + 1).padEnd(2, '0');
  const magnitude = BigInt(units + fraction);
  const negative = sign === MINUS && magnitude !== 0n;
  return { ok: true, cents: negative ? -magnitude : magnitude, literal: `${negative ? '-' : ''}${units}.${fraction}` };
}
