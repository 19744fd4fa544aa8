import type { InvoiceOutcome } from '@vf/db/src/stores/submission-record-store';
import { buildConsultaRequest, parseConsultaReply, type ConsultaRecord } from '@vf/xml';
import type { SoapTransport } from '../transport/soap-transport';
import type { PreparedMessage } from './prepare-message';
import { DUPLICATE_CODE, type SentRecord } from './map-outcomes';

function periodOf(sent: SentRecord): { year: string; month: string } {
  // PeriodoImputacion comes from FechaOperacion when there is one, else from FechaExpedicionFactura (dd-mm-yyyy).
  const [, month, year] = (sent.record.operationDate ?? sent.record.id.invoiceDate).split('-');
  return { year, month };
}

function outcomeOf(sent: SentRecord, held: ConsultaRecord): InvoiceOutcome {
  const base = { invoiceId: sent.invoiceId };
  const earlier = 'already registered by an earlier attempt (confirmed by the Consulta service)';
  switch (held.state) {
    case 'Correcto':
      return { ...base, status: 'accepted', note: `${earlier}: Correcto` };
    case 'AceptadoConErrores':
      return {
        ...base,
        status: 'accepted_with_warnings',
        code: held.errorCode ?? null,
        message: held.errorDescription ?? null,
        note: `${earlier}: AceptadoConErrores ${held.errorCode ?? ''} ${held.errorDescription ?? ''}`.trim(),
      };
    case 'Anulado':
      return { ...base, status: 'rejected', code: DUPLICATE_CODE, note: `${earlier}, but the authority holds it as cancelled (Anulado)` };
  }
}

/**
 * A resend answered with 3000 but without the stored state: ask the Consulta service what the authority holds for
 * that invoice. Records it cannot settle (no answer, not found) stay unresolved and go again later.
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
    if (held) settled.set(sent.invoiceId, outcomeOf(sent, held));
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
