import { completeRecord, readInvoiceId, readRecordData } from './record-xml';
import type { RegistrationRecord, SubmissionHeader } from './types';
import { nodes, requiredNode, requiredText, soapBodyPayload, text, XmlFormatError, type XmlNode } from './xml-reader';

export function readHeader(cabecera: XmlNode): SubmissionHeader {
  const obligado = requiredNode(cabecera, 'ObligadoEmision');
  const header: SubmissionHeader = { obligado: { name: requiredText(obligado, 'NombreRazon'), nif: requiredText(obligado, 'NIF') } };
  const voluntary = cabecera.RemisionVoluntaria as XmlNode | undefined;
  if (voluntary && typeof voluntary === 'object' && text(voluntary, 'Incidencia') === 'S') header.incident = true;
  return header;
}

/**
 * Reads a RegFactuSistemaFacturacion request (the simulator's side). Only RegistroAlta is modelled;
 * a RegistroAnulacion is reported as an error rather than silently dropped.
 */
export function parseRegFactuRequest(xml: string): { header: SubmissionHeader; records: RegistrationRecord[] } {
  const payload = soapBodyPayload(xml);
  if (payload.name !== 'RegFactuSistemaFacturacion') throw new XmlFormatError(`expected RegFactuSistemaFacturacion, got ${payload.name}`);
  const header = readHeader(requiredNode(payload.node, 'Cabecera'));
  const records = nodes(payload.node, 'RegistroFactura').map((registro) => {
    if (registro.RegistroAnulacion !== undefined) throw new XmlFormatError('RegistroAnulacion is not supported');
    const alta = requiredNode(registro, 'RegistroAlta');
    const id = readInvoiceId(requiredNode(alta, 'IDFactura'));
    return completeRecord(id, readRecordData(alta));
  });
  return { header, records };
}
