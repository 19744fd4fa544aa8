import { isValidIsoDate } from './is-valid-iso-date';

/**
 * Adds (or subtracts) whole years to a YYYY-MM-DD date. 29 February lands on 28 February when the
 * target year is a common year, so "today minus 20 years" never produces an impossible date.
 */
export function addYears(isoDate: string, years: number): string {
  if (!isValidIsoDate(isoDate)) throw new RangeError(`Not a YYYY-MM-DD date: ${JSON.stringify(isoDate)}`);
  const [year, month, day] = isoDate.split('-').map(Number);
  const targetYear = year + years;
  const candidate = `${pad(targetYear, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
  return isValidIsoDate(candidate) ? candidate : `${pad(targetYear, 4)}-${pad(month, 2)}-28`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
