import { AUTHORITY_STATUSES, type AuthorityStatus } from '@vf/core';
import type { MonthCounts } from '@vf/contract';
import { invoiceStatisticsStore, type Db } from '@vf/db';

/** "2026-11" of a moment, in Spain's peninsular time. */
function madridMonth(at: Date): string {
  return at.toLocaleDateString('sv-SE', { timeZone: 'Europe/Madrid' }).slice(0, 7);
}

/** The twelve months ending with `now`'s, oldest first. */
export function lastTwelveMonths(now: Date): string[] {
  const [y, m] = madridMonth(now).split('-').map(Number);
  return Array.from({ length: 12 }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 1 - (11 - i), 1));
    return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  });
}

/**
 * Invoices registered in each of the last 12 months (Madrid time, by when they were registered), by their current
 * status; months without any are there with zeros, so the chart always has twelve bars.
 */
export async function monthlyRegistrations(db: Db, accountId: string, now: Date): Promise<MonthCounts[]> {
  const months = lastTwelveMonths(now);
  const rows = await invoiceStatisticsStore.monthlyByStatus(db, accountId, months[0]);
  const byMonth = new Map(
    months.map((month) => [month, Object.fromEntries(AUTHORITY_STATUSES.map((s) => [s, 0])) as Record<AuthorityStatus, number>]),
  );
  for (const r of rows) {
    const counts = byMonth.get(r.month);
    if (counts) counts[r.status] = r.n;
  }
  return months.map((month) => {
    const counts = byMonth.get(month)!;
    return { month, counts, total: Object.values(counts).reduce((a, b) => a + b, 0) };
  });
}
