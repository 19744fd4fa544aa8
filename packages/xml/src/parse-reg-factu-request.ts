import type { CancellationRecord } from '@vf/core';
import { completeRecord, readChain, readInvoiceId, readRecordData, readSystemOf } from './build-reg-factu-request';
import type { ChainRecord, SubmissionHeader } from './types';
import { nodes, requiredNode, requiredText, soapBodyPayload, text, XmlFormatError, type XmlNode } from './xml-reader';

export function readHeader(cabecera: XmlNode): SubmissionHeader {
  const obligado = requiredNode(cabecera, 'ObligadoEmision');
  const header: SubmissionHeader = { obligado: { name: requiredText(obligado, 'NombreRazon'), nif: requiredText(obligado, 'NIF') } };
  const voluntary = cabecera.RemisionVoluntaria as XmlNode | undefined;
  if (voluntary && typeof voluntary === 'object' && text(voluntary, 'Incidencia') === 'S') header.incident = true;
  const requirement = cabecera.RemisionRequerimiento as XmlNode | undefined;
  const reference = requirement && typeof requirement === 'object' ? text(requirement, 'RefRequerimiento') : undefined;
  if (reference !== undefined) header.requirement = { reference, end: text(requirement!, 'FinRequerimiento') === 'S' };
  return header;
}

function readAnulacion(el: XmlNode): CancellationRecord {
  const id = requiredNode(el, 'IDFactura');
  const record: CancellationRecord = {
    kind: 'cancellation',
    id: {
      issuerNif: requiredText(id, 'IDEmisorFacturaAnulada'),
      invoiceNumber: requiredText(id, 'NumSerieFacturaAnulada'),
      invoiceDate: requiredText(id, 'FechaExpedicionFacturaAnulada'),
    },
    system: readSystemOf(el),
    generatedAt: requiredText(el, 'FechaHoraHusoGenRegistro'),
    hash: requiredText(el, 'Huella'),
  };
  const externalRef = text(el, 'RefExterna');
  if (externalRef !== undefined) record.externalRef = externalRef;
  if (text(el, 'SinRegistroPrevio') === 'S') record.sinRegistroPrevio = true;
  if (text(el, 'RechazoPrevio') === 'S') record.rechazoPrevio = true;
  const previous = readChain(el);
  if (previous) record.previous = previous;
  return record;
}

/** Reads a RegFactuSistemaFacturacion request (the simulator's side): each RegistroAlta and RegistroAnulacion in order. */
export function parseRegFactuRequest(xml: string): { header: SubmissionHeader; records: ChainRecord[] } {
  const payload = soapBodyPayload(xml);
  if (payload.name !== 'RegFactuSistemaFacturacion') throw new XmlFormatError(`expected RegFactuSistemaFacturacion, got ${payload.name}`);
  return readRegFactuRequest(payload.node);
}

/** parseRegFactuRequest for a SOAP Body payload already parsed (soapBodyPayload). */
export function readRegFactuRequest(payload: XmlNode): { header: SubmissionHeader; records: ChainRecord[] } {
  const header = readHeader(requiredNode(payload, 'Cabecera'));
  return { header, records: nodes(payload, 'RegistroFactura').map(readRegistroFactura) };
}

/** One parsed RegistroFactura: its RegistroAlta or RegistroAnulacion. Throws XmlFormatError when a field it needs is missing. */
export function readRegistroFactura(registro: XmlNode): ChainRecord {
  if (registro.RegistroAnulacion !== undefined) return readAnulacion(requiredNode(registro, 'RegistroAnulacion'));
  const alta = requiredNode(registro, 'RegistroAlta');
  const id = readInvoiceId(requiredNode(alta, 'IDFactura'));
  return completeRecord(id, readRecordData(alta));
}
