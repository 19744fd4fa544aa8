import type { InvoiceOutcome } from '@vf/db/src/stores/submission-record-store';
import { buildConsultaRequest, parseConsultaReply, type ConsultaRecord } from '@vf/xml';
import type { SoapTransport } from '../transport/soap-transport';
import type { PreparedMessage } from './prepare-message';
import { DUPLICATE_CODE, withCode, type SentRecord } from './map-outcomes';

function periodOf(sent: SentRecord): { year: string; month: string } {
  // PeriodoImputacion comes from FechaOperacion when there is one, else from FechaExpedicionFactura (dd-mm-yyyy).
  const operationDate = sent.record.kind === 'cancellation' ? undefined : sent.record.operationDate;
  const [, month, year] = (operationDate ?? sent.record.id.invoiceDate).split('-');
  return { year, month };
}

/**
 * What the authority holds for this invoice number means for our record. It is ours only when its huella is ours:
 * otherwise the number is taken by another record, and ours is `rejected`. Undefined: the held state is one this
 * service does not know, so nothing can be concluded yet.
 */
export function judgeHeldRecord(sent: SentRecord, held: ConsultaRecord): InvoiceOutcome | undefined {
  const base = { invoiceId: sent.invoiceId };
  const heldHash = held.data?.hash;
  if (heldHash !== sent.record.hash) {
    const why = `the authority already holds another record with number ${sent.record.id.invoiceNumber} of ${sent.record.id.invoiceDate} (huella ${heldHash ?? 'not given'})`;
    return { ...base, status: 'rejected', code: DUPLICATE_CODE, cause: 'number_taken', message: why, note: `rejected: ${why}` };
  }
  const ours = 'the authority holds this very record (same huella, confirmed by the Consulta service)';
  const state: string = held.state;
  switch (state) {
    case 'Correcto':
      return { ...base, status: 'accepted', note: `${ours}: Correcto` };
    case 'AceptadoConErrores':
      return {
        ...base,
        status: 'accepted_with_warnings',
        code: held.errorCode ?? null,
        message: held.errorDescription ?? null,
        note: `${ours}: AceptadoConErrores ${withCode(held.errorCode, held.errorDescription)}`,
      };
    case 'Anulado':
      // Registered, then cancelled by a later record: this record itself was accepted.
      return { ...base, status: 'accepted', note: `${ours}, since cancelled (Anulado)` };
    default:
      return undefined;
  }
}

/**
 * Asks the Consulta service what the authority holds for each record's invoice number. Records it cannot settle
 * (no answer, not found, unknown state) are left out: they go again later.
 */
export async function askAuthority(
  transport: SoapTransport,
  message: PreparedMessage,
  obligado: { name: string; nif: string },
  records: SentRecord[],
): Promise<Map<string, InvoiceOutcome>> {
  const settled = new Map<string, InvoiceOutcome>();
  for (const sent of records) {
    const held = await lookUp(transport, message, obligado, sent).catch(() => undefined);
    const outcome = held && judgeHeldRecord(sent, held);
    if (outcome) settled.set(sent.invoiceId, outcome);
  }
  return settled;
}

async function lookUp(transport: SoapTransport, message: PreparedMessage, obligado: { name: string; nif: string }, sent: SentRecord): Promise<ConsultaRecord | undefined> {
  const { id } = sent.record;
  const xml = buildConsultaRequest({ obligado, period: periodOf(sent), invoiceNumber: id.invoiceNumber, invoiceDate: id.invoiceDate });
  const exchange = await transport.send('ConsultaFactuSistemaFacturacion', message.endpoint, message.certificate.agent, xml);
  if (exchange.kind !== 'http') return undefined;
  const reply = parseConsultaReply(exchange.body);
  if (reply.kind !== 'consulta') return undefined;
  return reply.records.find((r) => r.id.issuerNif === id.issuerNif && r.id.invoiceNumber === id.invoiceNumber && r.id.invoiceDate === id.invoiceDate);
}
