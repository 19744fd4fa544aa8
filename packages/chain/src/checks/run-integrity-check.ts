import type { FoundAnomaly, IntegrityCheckReport } from '@vf/contract';
import type { CheckCounts, EventType } from '@vf/core';
import { idempotencyStore, keptRecordStore, type Db, type DbOrTx, type SealedAnswer } from '@vf/db';
import { appendEvent, appendEventToSystems } from '../events/append-event';
import type { RecordSigner } from '../kept/record-signer';
import type { WalkResult } from './chain-link';
import { checkEvents } from './check-events';
import { checkRecords } from './check-records';

/** Links one check walks at most; a longer chain is checked range by range. */
export const MAX_CHECKED_LINKS = 5_000;

export interface CheckRequest {
  chainId: string;
  /** The taxpayer chain's last record (its length): a check from 1 to it is a check of the whole chain. */
  length: number;
  subject: 'records' | 'events';
  /** For `events`: whose chain of events. */
  systemId?: string;
  fromSeq?: number;
  toSeq?: number;
}

const KINDS: Record<FoundAnomaly['kind'], 'hash' | 'signature' | 'chain' | 'time'> = {
  hash: 'hash',
  signature: 'signature',
  link: 'chain',
  date: 'time',
};

/**
 * An on-demand check of a taxpayer chain's records or of one chain of events, walked link by link, with its events:
 * the launch (03 / 05, with how many links each kind of check went through) and each anomaly found (04 / 06), which
 * also raises the chain's alarm. A whole chain found sound restores integrity: the alarm of that subject is cleared.
 */
export async function runIntegrityCheck(
  db: Db,
  request: CheckRequest,
  deps: { signer: RecordSigner; now: Date; answer?: (report: IntegrityCheckReport) => SealedAnswer },
): Promise<IntegrityCheckReport> {
  const fromSeq = Math.max(1, request.fromSeq ?? 1);
  const toSeq = Math.min(request.toSeq ?? Number.MAX_SAFE_INTEGER, fromSeq + MAX_CHECKED_LINKS - 1);
  const walked =
    request.subject === 'records'
      ? await checkRecords(db, request.chainId, { fromSeq, toSeq }, deps.now)
      : await checkEvents(db, { chainId: request.chainId, systemId: request.systemId! }, { fromSeq, toSeq }, deps.now);
  const lastSeq = walked.links.at(-1)?.seq ?? 0;
  const whole = fromSeq === 1 && (request.subject === 'events' ? toSeq >= lastSeq : lastSeq >= request.length);
  const restored = whole && walked.anomalies.length === 0;
  const report = { ...walked, fromSeq, toSeq: Math.min(toSeq, lastSeq), restored };
  const answer = deps.answer && (() => deps.answer!(report));
  await recordCheck(db, request, { checked: walked.links.length, ...walked }, restored, { ...deps, answer });
  return report;
}

/** What a check found: how many links it went through, its anomalies and (at least) the links they are in. */
export interface CheckOutcome extends WalkResult {
  checked: number;
}

/**
 * A check's outcome kept, in one transaction: its events (the launch and each anomaly), the alarm each anomaly raises,
 * the subject's alarm cleared when `restored`, and with an Idempotency-Key the report that answers a retry.
 */
export async function recordCheck(
  db: Db,
  request: Pick<CheckRequest, 'chainId' | 'subject' | 'systemId'>,
  outcome: CheckOutcome,
  restored: boolean,
  deps: { signer: RecordSigner; now: Date; answer?: () => SealedAnswer },
): Promise<void> {
  await db.transaction(async (tx) => {
    await writeCheckEvents(tx, request, outcome, deps);
    for (const a of outcome.anomalies) {
      await keptRecordStore.raiseAlarm(tx, {
        chainId: request.chainId,
        subject: request.subject,
        anomaly: KINDS[a.kind],
        recordId: a.id,
        detail: a.detail,
      });
    }
    if (restored) await keptRecordStore.clearAlarms(tx, request.chainId, request.subject);
    // With an Idempotency-Key, the report is kept with the events it wrote: a retry gets it, never a second check.
    if (deps.answer) await idempotencyStore.keep(tx, deps.answer());
  });
}

async function writeCheckEvents(
  tx: DbOrTx,
  request: Pick<CheckRequest, 'chainId' | 'subject' | 'systemId'>,
  walked: CheckOutcome,
  deps: { signer: RecordSigner; now: Date },
) {
  const n = walked.checked;
  const counts: CheckCounts = { hashes: n, signatures: n, chain: n, dates: n };
  if (request.subject === 'records') {
    await appendEventToSystems(tx, request.chainId, { type: '03', data: { kind: 'records_check', counts } }, deps);
    for (const a of walked.anomalies) {
      const detail = `registro ${a.seq}: ${a.detail}`;
      await appendEventToSystems(tx, request.chainId, { type: '04', data: { kind: 'records_anomaly', anomaly: a.type, detail } }, deps);
    }
    return;
  }
  const target = { chainId: request.chainId, systemId: request.systemId! };
  await appendEvent(tx, { ...target, type: '05', data: { kind: 'events_check', counts } }, deps);
  for (const a of walked.anomalies) {
    const link = walked.links.find((l) => l.id === a.id)!;
    await appendEvent(
      tx,
      {
        ...target,
        type: '06',
        data: { kind: 'events_anomaly', anomaly: a.type, detail: `evento ${a.seq}: ${a.detail}`, event: eventRef(link) },
      },
      deps,
    );
  }
}

/** The anomalous event as RegEventoType names it. */
function eventRef(link: { type?: string; generatedAt: string; hash: string }) {
  return { type: link.type as EventType, generatedAt: link.generatedAt, hash: link.hash };
}
