import { computeEventHash, type EventType } from '@vf/core';
import { eventLogStore, type DbOrTx, type StoredEvent } from '@vf/db';
import { CLOCK_TOLERANCE_MS } from '../kept/check-chain-head';
import type { CheckedLink, FoundAnomaly } from '@vf/contract';
import { ANOMALY_OF, type WalkResult } from './chain-link';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&#xD;': '\r' };

/** The first text of an element in an event as the service writes it (canonical, prefix `sf`), unescaped. */
function first(xml: string, pattern: string): string | undefined {
  const m = new RegExp(pattern).exec(xml);
  return m ? m[1].replace(/&amp;|&lt;|&gt;|&#xD;/g, (e) => ENTITIES[e]) : undefined;
}

/** The huella the event's own fields hash to (hash specification), and the huellas it states. */
function hashesOf(xml: string) {
  const field = (name: string) => first(xml, `<sf:${name}>([^<]*)</sf:${name}>`);
  const recomputed = computeEventHash({
    system: {
      NIF: field('NIF') ?? '',
      IdSistemaInformatico: field('IdSistemaInformatico') ?? '',
      Version: field('Version') ?? '',
      NumeroInstalacion: field('NumeroInstalacion') ?? '',
    },
    issuerNif: first(xml, '<sf:ObligadoEmision><sf:NombreRazon>[^<]*</sf:NombreRazon><sf:NIF>([^<]*)</sf:NIF>') ?? '',
    type: (first(xml, '</sf:FechaHoraHusoGenEvento><sf:TipoEvento>([^<]*)</sf:TipoEvento>') ?? '') as EventType,
    previousHash: first(xml, '<sf:EventoAnterior>.*?<sf:HuellaEvento>([^<]*)</sf:HuellaEvento></sf:EventoAnterior>'),
    generatedAt: field('FechaHoraHusoGenEvento') ?? '',
  });
  return {
    recomputed,
    stated: first(xml, '</sf:TipoHuella><sf:HuellaEvento>([^<]*)</sf:HuellaEvento>'),
    statedPrevious: first(xml, '<sf:EventoAnterior>.*?<sf:HuellaEvento>([^<]*)</sf:HuellaEvento></sf:EventoAnterior>'),
  };
}

/**
 * Walks one chain of events from `fromSeq` to `toSeq` (art. 9.3: the same functions as for the records): each event's
 * huella recomputed from its own fields, its signature, its link to the event before it and the order of their times.
 */
export async function checkEvents(
  db: DbOrTx,
  target: { chainId: string; systemId: string },
  range: { fromSeq: number; toSeq: number },
  now: Date,
): Promise<WalkResult> {
  const { verifyRecordSignature } = await import('@vf/signing/verify-record-signature');
  const events = await eventLogStore.list(
    db,
    target.chainId,
    { computerSystemId: target.systemId, afterSeq: Math.max(0, range.fromSeq - 2) },
    range.toSeq - range.fromSeq + 2,
  );
  let previous: StoredEvent | undefined = events[0]?.seq === range.fromSeq - 1 ? events[0] : undefined;
  const links: CheckedLink[] = [];
  const anomalies: FoundAnomaly[] = [];
  for (const e of events.filter((x) => x.seq >= range.fromSeq && x.seq <= range.toSeq)) {
    const found = (kind: FoundAnomaly['kind'], type: FoundAnomaly['type'], detail: string) =>
      anomalies.push({ seq: e.seq, id: e.id, kind, type, detail });
    const h = hashesOf(e.xml);
    const hashOk = h.recomputed === e.hash && h.stated === e.hash;
    if (!hashOk) found('hash', ANOMALY_OF.hash, 'the event does not hash to its huella');
    const verdict = verifyRecordSignature(e.xml);
    if (verdict.status !== 'valid') found('signature', ANOMALY_OF.signature, 'the event’s signature does not verify');
    const linkOk = previous
      ? e.previousHash === previous.hash && h.statedPrevious === previous.hash
      : e.seq === 1 && e.previousHash === null && h.statedPrevious === undefined;
    if (!linkOk) found('link', ANOMALY_OF.link, `its previous huella is not the huella of event ${e.seq - 1}`);
    const ahead = e.generatedAt.getTime() > now.getTime() + CLOCK_TOLERANCE_MS;
    const backwards = previous !== undefined && e.generatedAt.getTime() < previous.generatedAt.getTime();
    if (ahead) found('date', ANOMALY_OF.ahead, 'generated more than a minute ahead of the clock');
    if (backwards) found('date', ANOMALY_OF.date, 'generated before the event before it');
    links.push({
      seq: e.seq,
      id: e.id,
      type: e.type,
      generatedAt: e.generatedAtLiteral,
      hash: e.hash,
      hashOk,
      signatureOk: verdict.status === 'valid',
      linkOk,
      dateOk: !ahead && !backwards,
    });
    previous = e;
  }
  return { links, anomalies };
}
