import { toAeatDate, type ChainLink, type EventType, type RecordTotals } from '@vf/core';
import { eventLogStore, summaryStore, type Db, type DbOrTx, type PeriodRecords, type RecordMark } from '@vf/db';
import { SignerUnavailableError, type RecordSigner } from '../kept/record-signer';
import { appendEvent } from './append-event';

/** A summary is due for every six hours of operation (Orden HAC/1177/2024 art. 9.2): periods end at 00, 06, 12, 18 UTC. */
export const SUMMARY_PERIOD_MS = 6 * 60 * 60 * 1000;

/** Periods one chain of events is caught up by in one transaction: a month; the next sweep goes on. */
const MAX_PERIODS_AT_ONCE = 124;

/** The end of the six-hour period `at` is in (of a shorter period only in tests, counted from the epoch as well). */
export function periodEndAfter(at: Date, periodMs = SUMMARY_PERIOD_MS): Date {
  return new Date((Math.floor(at.getTime() / periodMs) + 1) * periodMs);
}

/** What a sweep needs: the signer, its moment, whether the system stops, and the period (six hours unless a test's). */
export interface SummaryDeps {
  signer: RecordSigner;
  now: Date;
  shutdown?: boolean;
  periodMs?: number;
}

const link = (m: RecordMark): ChainLink => ({ ...m, invoiceDate: toAeatDate(m.invoiceDate) });

function totals(r: PeriodRecords): RecordTotals {
  return {
    ...(r.first ? { first: link(r.first) } : {}),
    ...(r.last ? { last: link(r.last) } : {}),
    altas: r.altas,
    anulaciones: r.anulaciones,
    taxSum: r.taxSum,
    totalSum: r.totalSum,
  };
}

/**
 * One chain of events summarised up to `now`, in the caller's transaction with the chain held: a summary (event 10)
 * for each six-hour period ended since its last summary (caught up after an outage), and with `shutdown` one more up
 * to now. Each summary starts where the one before ended; the unique index on that start makes a second summary of
 * the same period impossible, whatever the number of workers. Returns how many were written.
 */
export async function summarise(tx: DbOrTx, target: { chainId: string; systemId: string }, deps: SummaryDeps): Promise<number> {
  const head = await eventLogStore.lockHead(tx, target.chainId, target.systemId);
  if (!head) return 0;
  let start = await summaryStore.nextStart(tx, head.eventChainId);
  let written = 0;
  while (start && written < MAX_PERIODS_AT_ONCE) {
    let end = periodEndAfter(start, deps.periodMs);
    if (end.getTime() > deps.now.getTime()) {
      if (!deps.shutdown || deps.now.getTime() <= start.getTime()) break;
      end = deps.now;
    }
    const counts = await eventLogStore.countsBetween(tx, head.eventChainId, start, end);
    const records = await summaryStore.records(tx, target.chainId, target.systemId, start, end);
    const event = await appendEvent(
      tx,
      {
        ...target,
        type: '10',
        // ResumenEventos lists at least one type: a period without events says so with a count of 0 summaries.
        data: {
          kind: 'summary',
          counts: counts.length > 0 ? counts.map((c) => ({ type: c.type as EventType, count: c.count })) : [{ type: '10', count: 0 }],
          totals: totals(records),
        },
        period: { start, end },
      },
      deps,
    );
    if (!event) break;
    written += 1;
    start = end;
  }
  return written;
}

/**
 * Every chain of events operating as NO VERI*FACTU summarised up to `now`, each in a transaction of its own. Run by
 * every worker, periodically and before it stops; as often as they like: a period is summarised once. A taxpayer whose
 * certificate cannot sign is skipped and reported, and caught up once it can.
 */
export async function writeDueSummaries(db: Db, deps: SummaryDeps): Promise<{ written: number; unsigned: string[] }> {
  let written = 0;
  const unsigned: string[] = [];
  for (const target of await summaryStore.candidates(db)) {
    try {
      written += await db.transaction((tx) => summarise(tx, target, deps));
    } catch (err) {
      if (!(err instanceof SignerUnavailableError)) throw err;
      unsigned.push(target.chainId);
    }
  }
  return { written, unsigned };
}
