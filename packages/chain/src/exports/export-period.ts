import { formatGeneratedAt, toAeatDate, type EventType } from '@vf/core';
import {
  eventLogStore,
  idempotencyStore,
  summaryStore,
  keptRecordStore,
  type Db,
  type DbOrTx,
  type SealedAnswer,
  type StoredEvent,
  type WalkedRecord,
} from '@vf/db';
import { buildRecordXml } from '@vf/xml';
import { appendEvent, appendEventToSystems, type AppendedEvent } from '../events/append-event';
import type { RecordSigner } from '../kept/record-signer';
import { rebuildChainRecord } from '../records/chain-record-row';

/** Records or events one export copies at most: a longer period is exported in parts. */
export const MAX_EXPORTED = 10_000;

/** One exported document: the XML exactly as generated (signed when it was signed), and what the index says of it. */
export interface ExportedItem {
  seq: number;
  id: string;
  /** `alta` / `anulacion` for a record; the TipoEvento for an event. */
  kind: string;
  /** The invoice (number and date) of a record. */
  invoice?: { number: string; date: string };
  generatedAt: string;
  hash: string;
  signed: boolean;
  xml: string;
}

export type PeriodExport = { kind: 'exported'; items: ExportedItem[]; events: AppendedEvent[] } | { kind: 'empty' } | { kind: 'too_large' };

export interface ExportRequest {
  chainId: string;
  subject: 'records' | 'events';
  systemId?: string;
  from: Date;
  to: Date;
}

const isAlta = (r: WalkedRecord) => r.record.recordType !== 'cancellation';

function recordItem(r: WalkedRecord): ExportedItem {
  return {
    seq: r.chainSeq,
    id: r.id,
    kind: isAlta(r) ? 'alta' : 'anulacion',
    invoice: { number: r.record.invoiceNumber, date: r.record.invoiceDate },
    generatedAt: r.record.generatedAtLiteral,
    hash: r.hash,
    signed: r.signedXml !== null,
    // A record never signed (VERI*FACTU, not yet sent) is the record rebuilt from its row and proven by its huella.
    xml: r.signedXml ?? buildRecordXml(rebuildChainRecord(r.record)),
  };
}

const eventItem = (e: StoredEvent): ExportedItem => ({
  seq: e.seq,
  id: e.id,
  kind: e.type,
  generatedAt: e.generatedAtLiteral,
  hash: e.hash,
  signed: true,
  xml: e.xml,
});

const mark = (r: WalkedRecord) => ({
  issuerNif: r.record.issuerNif,
  invoiceNumber: r.record.invoiceNumber,
  invoiceDate: toAeatDate(r.record.invoiceDate),
  hash: r.hash,
});
const eventRef = (e: StoredEvent) => ({ type: e.type as EventType, generatedAt: e.generatedAtLiteral, hash: e.hash });

/**
 * A faithful copy of a period's records (or of one system's events): each document exactly as generated, in chain
 * order, independent of any backup, and its event written (08 or 09, Orden HAC/1177/2024 art. 8.2 and 9.3). Nothing
 * stops being kept: the service deletes nothing.
 */
export async function exportPeriod(
  db: Db,
  request: ExportRequest,
  deps: { signer: RecordSigner; now: Date; answer?: (events: AppendedEvent[]) => SealedAnswer },
): Promise<PeriodExport> {
  // With an Idempotency-Key, the answer naming the export's event is kept with it: a retry never writes a second one.
  const kept = async (tx: DbOrTx, events: AppendedEvent[]) => {
    if (deps.answer) await idempotencyStore.keep(tx, deps.answer(events));
    return events;
  };
  const from = formatGeneratedAt(request.from);
  const to = formatGeneratedAt(request.to);
  if (request.subject === 'records') {
    const records = await keptRecordStore.inPeriod(db, request.chainId, request.from, request.to, MAX_EXPORTED + 1);
    if (records.length === 0) return { kind: 'empty' };
    if (records.length > MAX_EXPORTED) return { kind: 'too_large' };
    const items = records.map(recordItem);
    const sums = await summaryStore.recordsOfChain(db, request.chainId, request.from, request.to);
    const events = await db.transaction(async (tx) =>
      kept(
        tx,
        await appendEventToSystems(
          tx,
          request.chainId,
          {
            type: '08',
            data: {
              kind: 'records_export',
              from,
              to,
              totals: { ...sums, first: mark(records[0]), last: mark(records.at(-1)!) },
            },
          },
          deps,
        ),
      ),
    );
    return { kind: 'exported', items, events };
  }
  const target = { chainId: request.chainId, systemId: request.systemId! };
  const found = await eventLogStore.list(
    db,
    request.chainId,
    { computerSystemId: target.systemId, from: request.from, to: request.to },
    MAX_EXPORTED + 1,
  );
  if (found.length === 0) return { kind: 'empty' };
  if (found.length > MAX_EXPORTED) return { kind: 'too_large' };
  const events = await db.transaction(async (tx) => {
    const event = await appendEvent(
      tx,
      {
        ...target,
        type: '09',
        data: { kind: 'events_export', from, to, first: eventRef(found[0]), last: eventRef(found.at(-1)!), count: found.length },
      },
      deps,
    );
    return kept(tx, event ? [event] : []);
  });
  return { kind: 'exported', items: found.map(eventItem), events };
}
