import { formatGeneratedAt, isValidIsoDate } from '@vf/core';

const HOUR = 3_600_000;

/**
 * The instant a Madrid day starts (`daysLater` days after `day`), with Madrid's offset as the API's periods take it; anything but a date is
 * passed on as typed, for the API's own check to name. The offset is the one of the previous day's noon: Spain
 * changes its clocks at night, after midnight.
 */
export function madridDayStart(day: string, daysLater = 0): string {
  if (!isValidIsoDate(day)) return day;
  const [y, m, d] = day.split('-').map(Number);
  const utcMidnight = Date.UTC(y, m - 1, d + daysLater);
  const offset = formatGeneratedAt(new Date(utcMidnight - 12 * HOUR)).slice(-6);
  return `${new Date(utcMidnight).toISOString().slice(0, 10)}T00:00:00${offset}`;
}
