import { periodicCheckStore, summaryStore, type Db } from '@vf/db';
import type { RecordSigner } from '../kept/record-signer';
import type { CheckedLink, FoundAnomaly } from '@vf/contract';
import type { WalkResult } from './chain-link';
import { checkEvents } from './check-events';
import { checkRecords } from './check-records';
import { MAX_CHECKED_LINKS, recordCheck, type CheckOutcome, type CheckRequest } from './run-integrity-check';

const DAY_MS = 86_400_000;

/** How often the optional periodic full check runs: each UTC day, or each week from Monday 00:00 UTC. */
export type PeriodicCheck = 'off' | 'daily' | 'weekly';

export const PERIODIC_CHECK_MS: Record<Exclude<PeriodicCheck, 'off'>, number> = { daily: DAY_MS, weekly: 7 * DAY_MS };

/** 1970-01-01 was a Thursday: weeks counted from the epoch start on Monday four days later. */
const WEEK_OFFSET_MS = 4 * DAY_MS;

/** Where the period `at` is in starts: a day from midnight UTC, a week from Monday (any other length from the epoch). */
export function checkPeriodStart(at: Date, periodMs: number): Date {
  const offset = periodMs === PERIODIC_CHECK_MS.weekly ? WEEK_OFFSET_MS : 0;
  return new Date(Math.floor((at.getTime() - offset) / periodMs) * periodMs + offset);
}

/**
 * A whole chain walked slice by slice from its first link: memory holds one slice and what was found (the anomalies
 * and the links they are in), however long the chain. The walk ends at the first slice with no link.
 */
async function walkWhole(walk: (range: { fromSeq: number; toSeq: number }) => Promise<WalkResult>): Promise<CheckOutcome> {
  let checked = 0;
  const anomalies: FoundAnomaly[] = [];
  const links: CheckedLink[] = [];
  for (let fromSeq = 1; ; fromSeq += MAX_CHECKED_LINKS) {
    const slice = await walk({ fromSeq, toSeq: fromSeq + MAX_CHECKED_LINKS - 1 });
    if (slice.links.length === 0) return { checked, anomalies, links };
    checked += slice.links.length;
    anomalies.push(...slice.anomalies);
    links.push(...slice.links.filter((l) => slice.anomalies.some((a) => a.id === l.id)));
  }
}

/** The check of a whole chain of records or of events, kept as an on-demand check of the whole chain is (03/05, 04/06, the alarm). */
async function fullCheck(
  db: Db,
  request: Pick<CheckRequest, 'chainId' | 'subject' | 'systemId'>,
  deps: { signer: RecordSigner; now: Date },
) {
  const outcome = await walkWhole((range) =>
    request.subject === 'records'
      ? checkRecords(db, request.chainId, range, deps.now)
      : checkEvents(db, { chainId: request.chainId, systemId: request.systemId! }, range, deps.now),
  );
  await recordCheck(db, request, outcome, outcome.anomalies.length === 0, deps);
}

/**
 * The periodic full checks due at `now`: each taxpayer chain operating as NO VERI*FACTU, once per period, its records
 * and each system's chain of events. Every worker sweeps; the one whose claim of the period makes the row runs it
 * (docs/decisions/0063-periodic-full-check-claimed-by-a-primary-key.md). A check that fails gives its claim back, so a
 * later sweep runs it; the error goes to the caller once every other chain had its turn.
 */
export async function runDuePeriodicChecks(db: Db, deps: { signer: RecordSigner; now: Date; periodMs: number }): Promise<number> {
  const start = checkPeriodStart(deps.now, deps.periodMs);
  const systemsOf = new Map<string, string[]>();
  for (const c of await summaryStore.candidates(db)) systemsOf.set(c.chainId, [...(systemsOf.get(c.chainId) ?? []), c.systemId]);
  let checked = 0;
  let failure: unknown;
  for (const [chainId, systems] of systemsOf) {
    if (!(await periodicCheckStore.claim(db, chainId, start))) continue;
    try {
      await fullCheck(db, { chainId, subject: 'records' }, deps);
      for (const systemId of systems) await fullCheck(db, { chainId, subject: 'events', systemId }, deps);
      checked += 1;
    } catch (err) {
      await periodicCheckStore.release(db, chainId, start);
      failure ??= err;
    }
  }
  if (failure) throw failure;
  return checked;
}
