import { formatGeneratedAt, madridToday } from '@vf/core';

export interface QuotaPeriod {
  /** Calendar month in Europe/Madrid, "YYYY-MM". */
  period: string;
  /** Start of the next Madrid month: when the count starts again. */
  resetsAt: Date;
}

let last: QuotaPeriod | undefined;

export function quotaPeriod(now: Date): QuotaPeriod {
  const period = madridToday(now).slice(0, 7);
  if (last?.period === period) return last;
  last = monthOf(period);
  return last;
}

function monthOf(period: string): QuotaPeriod {
  const [year, month] = period.split('-').map(Number);
  const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
  const firstDay = `${next.year}-${String(next.month).padStart(2, '0')}-01`;
  // Madrid never changes offset on the 1st of a month, so the offset at 00:00 UTC that day is the one at local midnight.
  const offset = formatGeneratedAt(new Date(`${firstDay}T00:00:00Z`)).slice(-6);
  return { period, resetsAt: new Date(`${firstDay}T00:00:00${offset}`) };
}
