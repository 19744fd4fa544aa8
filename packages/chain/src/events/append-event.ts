import { buildEventXml } from '@vf/xml';
import { computeEventHash, type EventData, type EventType, type SifEvent } from '@vf/core';
import { eventLogStore, type DbOrTx } from '@vf/db';
import { signRecordAsync } from '@vf/signing';
import type { RecordSigner } from '../kept/record-signer';
import { systemSnapshot } from '../records/chain-record-row';
import { generationTime } from '../append/plan-registrations';
import { newRecordId } from '../records/new-record-id';

/** One event to append to the chain of events of a taxpayer chain and a system. */
export interface EventRequest {
  chainId: string;
  systemId: string;
  type: EventType;
  data?: EventData;
  other?: string;
  /** The period a summary covers: a second summary from the same start is never written. */
  period?: { start: Date; end: Date };
}

export interface AppendedEvent {
  id: string;
  hash: string;
}

/**
 * Appends one event in the caller's transaction, its chain of events held: chained to the last event, hashed as the
 * hash specification says, written as EventosSIF.xsd says and signed (XAdES-EPES, the signature the last child of
 * Evento) with the certificate that signs the taxpayer's records. Undefined for a summary of a period already
 * summarised. Throws SignerUnavailableError when no certificate can sign: nothing is written.
 */
export async function appendEvent(
  tx: DbOrTx,
  request: EventRequest,
  deps: { signer: RecordSigner; now: Date },
): Promise<AppendedEvent | undefined> {
  const head = await eventLogStore.lockHead(tx, request.chainId, request.systemId);
  if (!head) throw new Error(`no chain ${request.chainId} with system ${request.systemId} to append an event to`);
  const generated = generationTime(deps.now, head.last);
  const previous = head.last && { type: head.last.type as EventType, generatedAt: head.last.generatedAtLiteral, hash: head.last.hash };
  const system = systemSnapshot(head.system, head.severalTaxpayers);
  const hash = computeEventHash({
    system,
    issuerNif: head.taxpayer.nif,
    type: request.type,
    previousHash: previous?.hash,
    generatedAt: generated.literal,
  });
  const event: SifEvent = {
    system,
    issuer: { name: head.taxpayer.name, nif: head.taxpayer.nif },
    generatedAt: generated.literal,
    type: request.type,
    ...(request.data ? { data: request.data } : {}),
    ...(request.other ? { other: request.other } : {}),
    ...(previous ? { previous } : {}),
    hash,
  };
  const identity = await deps.signer.identityFor(head.taxpayer.id, tx);
  const xml = await signRecordAsync(buildEventXml(event), identity, { at: deps.now, within: 'sf:Evento' });
  const id = newRecordId();
  const written = await eventLogStore.append(tx, head, {
    id,
    type: request.type,
    generatedAt: generated.at,
    generatedAtLiteral: generated.literal,
    hash,
    previousHash: previous?.hash ?? null,
    period: request.period ?? null,
    xml,
  });
  return written ? { id, hash } : undefined;
}

/** The same event on each of the taxpayer chain's systems (a change of mode concerns every one of them). */
export async function appendEventToSystems(
  tx: DbOrTx,
  chainId: string,
  event: Omit<EventRequest, 'chainId' | 'systemId'>,
  deps: { signer: RecordSigner; now: Date },
): Promise<AppendedEvent[]> {
  const written: AppendedEvent[] = [];
  for (const systemId of await eventLogStore.systemsFor(tx, chainId)) {
    const one = await appendEvent(tx, { ...event, chainId, systemId }, deps);
    if (one) written.push(one);
  }
  return written;
}
