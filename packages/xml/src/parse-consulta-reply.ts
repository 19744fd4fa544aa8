import { readInvoiceId, readRecordData } from './build-reg-factu-request';
import { readSoapFault } from './parse-soap-fault';
import type { ConsultaRecord, ConsultaResponse, ParsedConsultaReply, StoredRecordState } from './types';
import { node, nodes, requiredNode, requiredText, soapBodyPayload, text, XmlFormatError, type XmlNode } from './xml-reader';

// The schema says Correcto/AceptadoConErrores/Anulado but AEAT's own example answers "Correcta".
function normaliseState(value: string): StoredRecordState {
  if (/^Correct[oa]$/.test(value)) return 'Correcto';
  if (/^Aceptad[oa]ConErrores$/.test(value)) return 'AceptadoConErrores';
  if (/^Anulad[oa]$/.test(value)) return 'Anulado';
  throw new XmlFormatError(`unknown EstadoRegistro ${value}`);
}

function readConsultaRecord(el: XmlNode): ConsultaRecord {
  const state = requiredNode(el, 'EstadoRegistro');
  const data = node(el, 'DatosRegistroFacturacion') ?? {};
  const record: ConsultaRecord = {
    id: readInvoiceId(requiredNode(el, 'IDFactura')),
    data: readRecordData(data),
    state: normaliseState(requiredText(state, 'EstadoRegistro')),
    lastModified: requiredText(state, 'TimestampUltimaModificacion'),
  };
  const incident = text(data, 'Incidencia');
  if (incident !== undefined) record.incident = incident === 'S';
  const presentation = node(el, 'DatosPresentacion');
  if (presentation) {
    record.presentation = {
      presenterNif: requiredText(presentation, 'NIFPresentador'),
      presentedAt: requiredText(presentation, 'TimestampPresentacion'),
      requestId: requiredText(presentation, 'IdPeticion'),
    };
  }
  const code = text(state, 'CodigoErrorRegistro');
  if (code) record.errorCode = Number(code);
  const description = text(state, 'DescripcionErrorRegistro');
  if (description !== undefined) record.errorDescription = description;
  return record;
}

/** Parses the answer to ConsultaFactuSistemaFacturacion (or a SOAP Fault), whatever the HTTP status. */
export function parseConsultaReply(xml: string): ParsedConsultaReply {
  const payload = soapBodyPayload(xml);
  if (payload.name === 'Fault') return readSoapFault(payload.node);
  if (payload.name !== 'RespuestaConsultaFactuSistemaFacturacion') throw new XmlFormatError(`unexpected SOAP payload ${payload.name}`);
  const el = payload.node;
  const cabecera = requiredNode(el, 'Cabecera');
  const party = node(cabecera, 'ObligadoEmision') ?? requiredNode(cabecera, 'Destinatario');
  const period = requiredNode(el, 'PeriodoImputacion');
  const response: ConsultaResponse = {
    kind: 'consulta',
    obligado: { name: requiredText(party, 'NombreRazon'), nif: requiredText(party, 'NIF') },
    period: { year: requiredText(period, 'Ejercicio'), month: requiredText(period, 'Periodo') },
    hasMore: text(el, 'IndicadorPaginacion') === 'S',
    records: nodes(el, 'RegistroRespuestaConsultaFactuSistemaFacturacion').map(readConsultaRecord),
  };
  const pageKey = node(el, 'ClavePaginacion');
  if (pageKey) response.pageKey = readInvoiceId(pageKey);
  return response;
}
