import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { writeInvoiceId, writeRecordBody } from './record-xml';
import type { RegistrationRecord, SubmissionHeader } from './types';
import { child, optional, serialize, soapEnvelope } from './xml-writer';

export function writeHeader(parent: XMLBuilder, p: 'sum1' | 'tik', header: SubmissionHeader): void {
  const obligado = child(parent, p, 'ObligadoEmision');
  child(obligado, p, 'NombreRazon', header.obligado.name);
  child(obligado, p, 'NIF', header.obligado.nif);
  if (header.incident) child(child(parent, p, 'RemisionVoluntaria'), p, 'Incidencia', 'S');
}

/** A complete RegFactuSistemaFacturacion SOAP request: one taxpayer, records in the given (chain) order. */
export function buildRegFactuRequest(header: SubmissionHeader, records: RegistrationRecord[]): string {
  const { doc, body } = soapEnvelope('soapenv', ['sum', 'sum1'], { header: true });
  const request = child(body, 'sum', 'RegFactuSistemaFacturacion');
  writeHeader(child(request, 'sum', 'Cabecera'), 'sum1', header);
  for (const record of records) {
    const alta = child(child(request, 'sum', 'RegistroFactura'), 'sum1', 'RegistroAlta');
    child(alta, 'sum1', 'IDVersion', '1.0');
    writeInvoiceId(child(alta, 'sum1', 'IDFactura'), 'sum1', record.id);
    optional(alta, 'sum1', 'RefExterna', record.externalRef);
    child(alta, 'sum1', 'NombreRazonEmisor', record.issuerName);
    writeRecordBody(alta, 'sum1', 'sum1', record);
  }
  return serialize(doc);
}
