/** Two-decimal literal of an amount in cents: 1210n -> "12.10", -500n -> "-5.00", 0n -> "0.00". */
export function formatCents(cents: bigint): string {
  const negative = cents < 0n;
  const magnitude = negative ? -cents : cents;
  const units = magnitude / 100n;
  const fraction = (magnitude % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${units}.${fraction}`;
}
