import { isValidIsoDate } from './is-valid-iso-date';

const AEAT_DATE = /^(\d{2})-(\d{2})-(\d{4})$/;

/** '2024-01-01' -> '01-01-2024' (the authority's dd-mm-yyyy). Throws on anything but a real YYYY-MM-DD date. */
export function toAeatDate(isoDate: string): string {
  if (!isValidIsoDate(isoDate)) throw new RangeError(`Not a YYYY-MM-DD date: ${JSON.stringify(isoDate)}`);
  return `${isoDate.slice(8, 10)}-${isoDate.slice(5, 7)}-${isoDate.slice(0, 4)}`;
}

/** '01-01-2024' -> '2024-01-01'. Throws on anything but a real dd-mm-yyyy date. */
export function fromAeatDate(aeatDate: string): string {
  const match = AEAT_DATE.exec(aeatDate);
  const isoDate = match ? `${match[3]}-${match[2]}-${match[1]}` : '';
  if (!isValidIsoDate(isoDate)) throw new RangeError(`Not a dd-mm-yyyy date: ${JSON.stringify(aeatDate)}`);
  return isoDate;
}
