import { madridWallClock } from './madrid-clock';

/**
 * FechaHoraHusoGenRegistro: Madrid local time to the second with its numeric offset,
 * e.g. 2024-01-01T19:20:30+01:00. Milliseconds are dropped (never rounded up, so the
 * literal never lies ahead of the instant); no "Z" because the authority's examples never use it.
 */
export function formatGeneratedAt(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid date');
  const instant = new Date(Math.floor(date.getTime() / 1000) * 1000);
  const c = madridWallClock(instant);
  const wallAsUtc = Date.UTC(Number(c.year), Number(c.month) - 1, Number(c.day), Number(c.hour), Number(c.minute), Number(c.second));
  const offsetMinutes = Math.round((wallAsUtc - instant.getTime()) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${c.year}-${c.month}-${c.day}T${c.hour}:${c.minute}:${c.second}${offset}`;
}
