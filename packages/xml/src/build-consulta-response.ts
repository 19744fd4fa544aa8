import { writeInvoiceId, writeRecordBody, yes } from './build-reg-factu-request';
import type { ConsultaResponse } from './types';
import { child, optional, serialize, soapEnvelope } from './xml-writer';

/**
 * RespuestaConsultaFactuSistemaFacturacion (RespuestaConsultaLR.xsd). Every element of a record's data is
 * optional there; each one present is written in the schema's order.
 */
export function buildConsultaResponse(r: Omit<ConsultaResponse, 'kind'> & { as?: 'obligado' | 'recipient' }): string {
  const { doc, body } = soapEnvelope('env', ['tikLRRC', 'tik'], { header: true, bodyId: 'Body' });
  const response = child(body, 'tikLRRC', 'RespuestaConsultaFactuSistemaFacturacion');
  const cabecera = child(response, 'tikLRRC', 'Cabecera');
  child(cabecera, 'tik', 'IDVersion', '1.0');
  const party = child(cabecera, 'tik', r.as === 'recipient' ? 'Destinatario' : 'ObligadoEmision');
  child(party, 'tik', 'NombreRazon', r.obligado.name);
  child(party, 'tik', 'NIF', r.obligado.nif);
  const period = child(response, 'tikLRRC', 'PeriodoImputacion');
  child(period, 'tikLRRC', 'Ejercicio', r.period.year);
  child(period, 'tikLRRC', 'Periodo', r.period.month);
  child(response, 'tikLRRC', 'IndicadorPaginacion', r.hasMore ? 'S' : 'N');
  child(response, 'tikLRRC', 'ResultadoConsulta', r.records.length ? 'ConDatos' : 'SinDatos');
  for (const record of r.records) {
    const el = child(response, 'tikLRRC', 'RegistroRespuestaConsultaFactuSistemaFacturacion');
    writeInvoiceId(child(el, 'tikLRRC', 'IDFactura'), 'tik', record.id);
    const data = child(el, 'tikLRRC', 'DatosRegistroFacturacion');
    optional(data, 'tikLRRC', 'NombreRazonEmisor', record.data.issuerName);
    optional(data, 'tikLRRC', 'RefExterna', record.data.externalRef);
    optional(data, 'tikLRRC', 'Subsanacion', yes(record.data.flags?.subsanacion));
    optional(data, 'tikLRRC', 'RechazoPrevio', record.data.flags?.rechazoPrevio);
    optional(data, 'tikLRRC', 'SinRegistroPrevio', yes(record.data.sinRegistroPrevio));
    writeRecordBody(data, 'tikLRRC', 'tik', record.data);
    if (record.incident !== undefined) optional(data, 'tikLRRC', 'Incidencia', record.incident ? 'S' : 'N');
    if (record.presentation) {
      const presentation = child(el, 'tikLRRC', 'DatosPresentacion');
      child(presentation, 'tik', 'NIFPresentador', record.presentation.presenterNif);
      child(presentation, 'tik', 'TimestampPresentacion', record.presentation.presentedAt);
      child(presentation, 'tik', 'IdPeticion', record.presentation.requestId);
    }
    const state = child(el, 'tikLRRC', 'EstadoRegistro');
    child(state, 'tikLRRC', 'TimestampUltimaModificacion', record.lastModified);
    child(state, 'tikLRRC', 'EstadoRegistro', record.state);
    optional(state, 'tikLRRC', 'CodigoErrorRegistro', record.errorCode?.toString());
    optional(state, 'tikLRRC', 'DescripcionErrorRegistro', record.errorDescription);
  }
  if (r.pageKey) writeInvoiceId(child(response, 'tikLRRC', 'ClavePaginacion'), 'tik', r.pageKey);
  return serialize(doc);
}
