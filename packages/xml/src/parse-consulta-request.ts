import { readInvoiceId } from './build-reg-factu-request';
import type { ConsultaQuery } from './types';
import { node, requiredNode, requiredText, soapBodyPayload, text, XmlFormatError, type XmlNode } from './xml-reader';

export interface ParsedConsultaRequest {
  /** Exactly one of obligado (query as issuer) or recipient (query as Destinatario). */
  query: Omit<ConsultaQuery, 'obligado'> & { obligado?: ConsultaQuery['obligado']; recipient?: ConsultaQuery['obligado'] };
  dateRange?: { from?: string; to?: string };
}

/** Reads a ConsultaFactuSistemaFacturacion request (the simulator's side). */
export function parseConsultaRequest(xml: string): ParsedConsultaRequest {
  const payload = soapBodyPayload(xml);
  if (payload.name !== 'ConsultaFactuSistemaFacturacion')
    throw new XmlFormatError(`expected ConsultaFactuSistemaFacturacion, got ${payload.name}`);
  return readConsultaRequest(payload.node);
}

/** parseConsultaRequest for a SOAP Body payload already parsed (soapBodyPayload). */
export function readConsultaRequest(payload: XmlNode): ParsedConsultaRequest {
  const cabecera = requiredNode(payload, 'Cabecera');
  const filter = requiredNode(payload, 'FiltroConsulta');
  const period = requiredNode(filter, 'PeriodoImputacion');
  const party = (name: string) => {
    const el = node(cabecera, name);
    return el ? { name: requiredText(el, 'NombreRazon'), nif: requiredText(el, 'NIF') } : undefined;
  };
  const result: ParsedConsultaRequest = {
    query: { period: { year: requiredText(period, 'Ejercicio'), month: requiredText(period, 'Periodo') } },
  };
  const obligado = party('ObligadoEmision');
  const recipient = party('Destinatario');
  if (obligado) result.query.obligado = obligado;
  if (recipient) result.query.recipient = recipient;
  const invoiceNumber = text(filter, 'NumSerieFactura');
  if (invoiceNumber !== undefined) result.query.invoiceNumber = invoiceNumber;
  const dates = node(filter, 'FechaExpedicionFactura');
  if (dates) {
    const exact = text(dates, 'FechaExpedicionFactura');
    if (exact !== undefined) result.query.invoiceDate = exact;
    const range = node(dates, 'RangoFechaExpedicion');
    if (range) result.dateRange = { from: text(range, 'Desde'), to: text(range, 'Hasta') };
  }
  const externalRef = text(filter, 'RefExterna');
  if (externalRef !== undefined) result.query.externalRef = externalRef;
  const pageKey = node(filter, 'ClavePaginacion');
  if (pageKey) result.query.pageKey = readInvoiceId(pageKey);
  const extra = node(payload, 'DatosAdicionalesRespuesta');
  if (extra) {
    const issuerName = text(extra, 'MostrarNombreRazonEmisor');
    const system = text(extra, 'MostrarSistemaInformatico');
    if (issuerName !== undefined) result.query.showIssuerName = issuerName === 'S';
    if (system !== undefined) result.query.showSystem = system === 'S';
  }
  return result;
}
