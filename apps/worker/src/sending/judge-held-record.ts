import { buildConsultaRequest, parseConsultaReply, type ConsultaRecord } from '@vf/xml';
import type { SoapExchange } from '../transport/soap-transport';
import { DUPLICATE_CODE, withCode } from './judge-answer';
import type { RecordVerdict, SentRecord } from './verdict';

/**
 * What to ask the Consulta service about a record the answer did not settle: the invoice, as its issuer, in the
 * period it belongs to (PeriodoImputacion: from FechaOperacion when there is one, else from FechaExpedicionFactura).
 */
export function consultaRequestFor(sent: SentRecord, obligado: { name: string; nif: string }): string {
  const { id } = sent.record;
  const operationDate = sent.record.kind === 'cancellation' ? undefined : sent.record.operationDate;
  const [, month, year] = (operationDate ?? id.invoiceDate).split('-');
  return buildConsultaRequest({ obligado, period: { year, month }, invoiceNumber: id.invoiceNumber, invoiceDate: id.invoiceDate });
}

/** The record the authority holds under the sent record's IDFactura, as a Consulta exchange shows it. */
export function heldRecordIn(exchange: SoapExchange | undefined, sent: SentRecord): ConsultaRecord | undefined {
  if (exchange?.kind !== 'http') return undefined;
  let reply: ReturnType<typeof parseConsultaReply>;
  try {
    reply = parseConsultaReply(exchange.body);
  } catch {
    return undefined;
  }
  if (reply.kind !== 'consulta') return undefined;
  const { id } = sent.record;
  return reply.records.find(
    (r) => r.id.issuerNif === id.issuerNif && r.id.invoiceNumber === id.invoiceNumber && r.id.invoiceDate === id.invoiceDate,
  );
}

/**
 * What the record the authority holds means for ours. It is ours only when its huella is ours: otherwise the number
 * is taken by another record, and ours is `rejected`. Nothing held, or a held state this service does not know: the
 * record goes again later. `csv`: the CSV of the answer that raised the question.
 */
export function judgeHeldRecord(
  ask: Extract<RecordVerdict, { kind: 'ask' }>,
  held: ConsultaRecord | undefined,
  csv?: string | null,
): RecordVerdict {
  const { sent } = ask;
  const again = (reason: string): RecordVerdict => ({ kind: 'again', sent, reason, code: ask.code, unknownState: ask.unknownState });
  const unsettled =
    ask.unknownState !== undefined
      ? `the authority answered the unknown EstadoRegistro "${ask.unknownState}" and the Consulta service did not settle it`
      : 'duplicate (3000) and the Consulta service did not show the record the authority holds';
  if (!held) return again(unsettled);
  const base = { invoiceId: sent.invoiceId, csv: csv ?? null };
  const heldHash = held.data?.hash;
  if (heldHash !== sent.record.hash) {
    const why = `the authority already holds another record with number ${sent.record.id.invoiceNumber} of ${sent.record.id.invoiceDate} (huella ${heldHash ?? 'not given'})`;
    return {
      kind: 'settled',
      outcome: { ...base, status: 'rejected', code: DUPLICATE_CODE, cause: 'number_taken', message: why, note: `rejected: ${why}` },
    };
  }
  const ours = 'the authority holds this very record (same huella, confirmed by the Consulta service)';
  const state: string = held.state;
  switch (state) {
    case 'Correcto':
      return { kind: 'settled', outcome: { ...base, status: 'accepted', note: `${ours}: Correcto` } };
    case 'AceptadoConErrores':
      return {
        kind: 'settled',
        outcome: {
          ...base,
          status: 'accepted_with_warnings',
          code: held.errorCode ?? null,
          message: held.errorDescription ?? null,
          note: `${ours}: AceptadoConErrores ${withCode(held.errorCode, held.errorDescription)}`,
        },
      };
    case 'Anulado':
      // Registered, then cancelled by a later record: this record itself was accepted.
      return { kind: 'settled', outcome: { ...base, status: 'accepted', note: `${ours}, since cancelled (Anulado)` } };
    default:
      return again(unsettled);
  }
}
