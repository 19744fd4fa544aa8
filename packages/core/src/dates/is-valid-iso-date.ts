const DASH = 0x2d;

/** True for a real calendar date written YYYY-MM-DD ('2024-02-29' yes, '2023-02-29' and '2024-02-30' no). */
export function isValidIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || value.length !== 10 || value.charCodeAt(4) !== DASH || value.charCodeAt(7) !== DASH) return false;
  // Read in place, no match array: every invoice date, operation date and record date passes here, some twice.
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** The number written by `count` ASCII digits from `from`; -1 when any of them is not one. */
function digits(text: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
}
