import type { ConsultaQuery } from './types';
import { writeInvoiceId } from './build-reg-factu-request';
import { child, optional, serialize, soapEnvelope } from './xml-writer';

/** ConsultaFactuSistemaFacturacion as the issuer, for one period (and optionally one invoice). */
export function buildConsultaRequest(q: ConsultaQuery): string {
  const { doc, body } = soapEnvelope('soapenv', ['con', 'sum1'], { header: true });
  const request = child(body, 'con', 'ConsultaFactuSistemaFacturacion');
  const cabecera = child(request, 'con', 'Cabecera');
  child(cabecera, 'sum1', 'IDVersion', '1.0');
  const obligado = child(cabecera, 'sum1', 'ObligadoEmision');
  child(obligado, 'sum1', 'NombreRazon', q.obligado.name);
  child(obligado, 'sum1', 'NIF', q.obligado.nif);
  const filter = child(request, 'con', 'FiltroConsulta');
  const period = child(filter, 'con', 'PeriodoImputacion');
  child(period, 'sum1', 'Ejercicio', q.period.year);
  child(period, 'sum1', 'Periodo', q.period.month);
  optional(filter, 'con', 'NumSerieFactura', q.invoiceNumber);
  if (q.invoiceDate !== undefined) child(child(filter, 'con', 'FechaExpedicionFactura'), 'sum1', 'FechaExpedicionFactura', q.invoiceDate);
  optional(filter, 'con', 'RefExterna', q.externalRef);
  if (q.pageKey) writeInvoiceId(child(filter, 'con', 'ClavePaginacion'), 'sum1', q.pageKey);
  if (q.showIssuerName !== undefined || q.showSystem !== undefined) {
    const extra = child(request, 'con', 'DatosAdicionalesRespuesta');
    optional(extra, 'con', 'MostrarNombreRazonEmisor', q.showIssuerName === undefined ? undefined : q.showIssuerName ? 'S' : 'N');
    optional(extra, 'con', 'MostrarSistemaInformatico', q.showSystem === undefined ? undefined : q.showSystem ? 'S' : 'N');
  }
  return serialize(doc);
}
