import type { CancellationRecord, RegistrationRecord } from '@vf/core';
import { writeChainTail, writeInvoiceId, writeRecordBody, yes } from './record-xml';
import type { ChainRecord, SubmissionHeader } from './types';
import { serializeCanonical } from './canonical-xml';
import { child, optional, PREFIX_NS, serialize, soapEnvelope, type XmlElement } from './xml-writer';

export function writeHeader(parent: XmlElement, p: 'sum1' | 'tik', header: SubmissionHeader): void {
  const obligado = child(parent, p, 'ObligadoEmision');
  child(obligado, p, 'NombreRazon', header.obligado.name);
  child(obligado, p, 'NIF', header.obligado.nif);
  if (header.incident) child(child(parent, p, 'RemisionVoluntaria'), p, 'Incidencia', 'S');
  if (header.requirement) {
    const requirement = child(parent, p, 'RemisionRequerimiento');
    child(requirement, p, 'RefRequerimiento', header.requirement.reference);
    child(requirement, p, 'FinRequerimiento', header.requirement.end ? 'S' : 'N');
  }
}

function writeAlta(parent: XmlElement, record: RegistrationRecord): void {
  const alta = child(parent, 'sum1', 'RegistroAlta');
  child(alta, 'sum1', 'IDVersion', '1.0');
  writeInvoiceId(child(alta, 'sum1', 'IDFactura'), 'sum1', record.id);
  optional(alta, 'sum1', 'RefExterna', record.externalRef);
  child(alta, 'sum1', 'NombreRazonEmisor', record.issuerName);
  optional(alta, 'sum1', 'Subsanacion', yes(record.flags?.subsanacion));
  optional(alta, 'sum1', 'RechazoPrevio', record.flags?.rechazoPrevio);
  writeRecordBody(alta, 'sum1', 'sum1', record);
}

function writeAnulacion(parent: XmlElement, record: CancellationRecord): void {
  const anulacion = child(parent, 'sum1', 'RegistroAnulacion');
  child(anulacion, 'sum1', 'IDVersion', '1.0');
  const id = child(anulacion, 'sum1', 'IDFactura');
  child(id, 'sum1', 'IDEmisorFacturaAnulada', record.id.issuerNif);
  child(id, 'sum1', 'NumSerieFacturaAnulada', record.id.invoiceNumber);
  child(id, 'sum1', 'FechaExpedicionFacturaAnulada', record.id.invoiceDate);
  optional(anulacion, 'sum1', 'RefExterna', record.externalRef);
  optional(anulacion, 'sum1', 'SinRegistroPrevio', yes(record.sinRegistroPrevio));
  optional(anulacion, 'sum1', 'RechazoPrevio', yes(record.rechazoPrevio));
  writeChainTail(anulacion, 'sum1', 'sum1', record);
}

/**
 * One record (RegistroAlta or RegistroAnulacion) as a standalone document in Canonical XML 1.0, its root declaring
 * the one namespace it uses: the form a record is signed in (@vf/signing's signRecord) and embedded, byte for byte,
 * in every message that carries it (buildRegFactuRequest).
 */
export function buildRecordXml(record: ChainRecord): string {
  const holder: XmlElement = { node: {}, children: [] };
  if (record.kind === 'cancellation') writeAnulacion(holder, record);
  else writeAlta(holder, record);
  return serializeCanonical(holder.children[0] as XmlElement['node'], { sum1: PREFIX_NS.sum1 });
}

/** A RegFactuSistemaFacturacion request around its records: `head`, each record between `open` and `close`, `tail`. */
export interface RegFactuRequestFrame {
  head: string;
  open: string;
  close: string;
  tail: string;
}

/**
 * What surrounds the records of a request with this header, for a sender that assembles the bytes itself (one buffer
 * of a 1,000-record message, never a second copy as a string).
 */
export function regFactuRequestFrame(header: SubmissionHeader): RegFactuRequestFrame {
  const { doc, body } = soapEnvelope('soapenv', ['sum', 'sum1'], { header: true });
  const request = child(body, 'sum', 'RegFactuSistemaFacturacion');
  writeHeader(child(request, 'sum', 'Cabecera'), 'sum1', header);
  const envelope = serialize(doc);
  const end = envelope.lastIndexOf(REQUEST_END);
  return { head: envelope.slice(0, end), open: REGISTRO_START, close: REGISTRO_END, tail: envelope.slice(end) };
}

/**
 * A complete RegFactuSistemaFacturacion SOAP request: one taxpayer, altas and anulaciones in the given (chain) order.
 * Each record is given as written by buildRecordXml, signed or not, and goes into the message byte for byte: a
 * signature over the standalone record (URI="") holds only on those exact bytes. The record's root declares its own
 * namespace, so it reads the same inside the envelope as on its own.
 */
export function buildRegFactuRequest(header: SubmissionHeader, records: (ChainRecord | string)[]): string {
  const frame = regFactuRequestFrame(header);
  const parts = [frame.head];
  for (const record of records) parts.push(frame.open, typeof record === 'string' ? record : buildRecordXml(record), frame.close);
  parts.push(frame.tail);
  return parts.join('');
}

const REQUEST_END = '</sum:RegFactuSistemaFacturacion>';
const REGISTRO_START = '<sum:RegistroFactura>';
const REGISTRO_END = '</sum:RegistroFactura>';
