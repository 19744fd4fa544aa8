import type { InvoiceOutcome } from '@vf/db';
import { readConsultaAnswer, type SoapExchange } from '@vf/authority-client';
import { buildConsultaRequest, type ConsultaRecord } from '@vf/xml';
import { DUPLICATE_CODE, recordOutcome, withCode, type RecordVerdict, type SentRecord } from './judge-answer';

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

/**
 * The record the authority holds under the sent record's IDFactura, as a Consulta exchange shows it: `none` when the
 * Consulta service answered and holds nothing under it, undefined when it gave no usable answer.
 */
export function heldRecordIn(exchange: SoapExchange | undefined, sent: SentRecord): ConsultaRecord | 'none' | undefined {
  if (!exchange) return undefined;
  const answer = readConsultaAnswer(exchange);
  if (answer.kind !== 'reply') return undefined;
  const { id } = sent.record;
  const held = answer.reply.records.find(
    (r) => r.id.issuerNif === id.issuerNif && r.id.invoiceNumber === id.invoiceNumber && r.id.invoiceDate === id.invoiceDate,
  );
  return held ?? 'none';
}

/** Why the record was asked about, for the history when the Consulta service did not settle it. */
function question(ask: Extract<RecordVerdict, { kind: 'ask' }>): string {
  if (ask.unanswered !== undefined) return ask.unanswered;
  if (ask.unknownState !== undefined) return `the authority answered the unknown EstadoRegistro "${ask.unknownState}"`;
  if (ask.code === DUPLICATE_CODE) return 'duplicate (3000)';
  return `the authority answered ${withCode(ask.code, ask.message) || 'Incorrecto without a code'}`;
}

/**
 * What the record the authority holds means for ours (`held`: what heldRecordIn found). It is ours only when its
 * huella is ours. Otherwise, by what raised the question: after a 3000 the number is taken by another record; after a
 * 3001 the invoice was cancelled by another record; after a lost answer ours was not stored and goes again; after a
 * code in no table ours was refused with it. The Consulta service not answering (or a held state this service does
 * not know) sends the record again later, where the question comes up again. `csv`: the CSV of the answer that raised
 * the question.
 */
export function judgeHeldRecord(
  ask: Extract<RecordVerdict, { kind: 'ask' }>,
  held: ConsultaRecord | 'none' | undefined,
  csv?: string | null,
): RecordVerdict {
  const { sent } = ask;
  const again = (reason: string): RecordVerdict => ({ kind: 'again', sent, reason, code: ask.code, unknownState: ask.unknownState });
  if (held === undefined) return again(`${question(ask)} and the Consulta service did not answer`);
  const { invoiceId } = sent;
  const settled = (outcome: InvoiceOutcome): RecordVerdict => ({ kind: 'settled', outcome });
  const heldHash = held === 'none' ? undefined : held.data?.hash;
  if (held === 'none' || heldHash !== sent.record.hash) {
    const notOurs =
      held === 'none'
        ? 'the Consulta service shows the authority holds no record of this invoice'
        : `the authority already holds another record with number ${sent.record.id.invoiceNumber} of ${sent.record.id.invoiceDate} (huella ${heldHash ?? 'not given'})`;
    // Not stored: going again is safe, and the only way the authority gets it.
    if (ask.unanswered !== undefined || ask.unknownState !== undefined) return again(`${question(ask)}; ${notOurs}`);
    if (ask.code === DUPLICATE_CODE) {
      if (held === 'none') return again(`${question(ask)}; ${notOurs}`);
      return settled(
        recordOutcome.rejected(invoiceId, csv ?? null, { code: DUPLICATE_CODE, cause: 'number_taken', message: notOurs, why: notOurs }),
      );
    }
    const message = ask.message ?? notOurs;
    return settled(recordOutcome.rejected(invoiceId, csv ?? null, { code: ask.code, message, why: withCode(ask.code, message) }));
  }
  const ours = 'the authority holds this very record (same huella, confirmed by the Consulta service)';
  const state: string = held.state;
  switch (state) {
    case 'Correcto':
      return settled(recordOutcome.accepted(invoiceId, csv ?? null, `${ours}: Correcto`));
    case 'AceptadoConErrores':
      return settled(
        recordOutcome.acceptedWithWarnings(
          invoiceId,
          csv ?? null,
          { code: held.errorCode, message: held.errorDescription },
          `${ours}: AceptadoConErrores ${withCode(held.errorCode, held.errorDescription)}`,
        ),
      );
    case 'Anulado':
      // Registered, then cancelled by a later record (or this record is the anulación): it was accepted.
      return settled(recordOutcome.accepted(invoiceId, csv ?? null, `${ours}, since cancelled (Anulado)`));
    default:
      return again(`${question(ask)}; the Consulta service shows the unknown state "${state}"`);
  }
}
