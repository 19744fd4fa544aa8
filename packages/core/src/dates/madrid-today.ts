import { madridWallClock } from './madrid-clock';

/** Today's date in Europe/Madrid as YYYY-MM-DD (the server may run in UTC: 23:30 UTC in summer is already tomorrow). */
export function madridToday(now: Date = new Date()): string {
  const { year, month, day } = madridWallClock(now);
  return `${year}-${month}-${day}`;
}
