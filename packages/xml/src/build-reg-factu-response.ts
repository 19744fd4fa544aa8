import { writeHeader, writeInvoiceId } from './build-reg-factu-request';
import type { SubmissionHeader, SubmissionResponse } from './types';
import { child, optional, serialize, soapEnvelope } from './xml-writer';

/** RespuestaRegFactuSistemaFacturacion in RespuestaSuministro.xsd order, Body Id="Body" as AEAT sends it. */
export function buildRegFactuResponse(r: Omit<SubmissionResponse, 'kind'> & { header: SubmissionHeader }): string {
  const { doc, body } = soapEnvelope('env', ['tikR', 'tik'], { header: true, bodyId: 'Body' });
  const response = child(body, 'tikR', 'RespuestaRegFactuSistemaFacturacion');
  optional(response, 'tikR', 'CSV', r.csv);
  if (r.presenterNif !== undefined && r.presentedAt !== undefined) {
    const presentation = child(response, 'tikR', 'DatosPresentacion');
    child(presentation, 'tik', 'NIFPresentador', r.presenterNif);
    child(presentation, 'tik', 'TimestampPresentacion', r.presentedAt);
  }
  writeHeader(child(response, 'tikR', 'Cabecera'), 'tik', r.header);
  child(response, 'tikR', 'TiempoEsperaEnvio', String(r.waitSeconds));
  child(response, 'tikR', 'EstadoEnvio', r.rawSendState ?? r.sendState);
  for (const line of r.lines) {
    const el = child(response, 'tikR', 'RespuestaLinea');
    writeInvoiceId(child(el, 'tikR', 'IDFactura'), 'tik', line.id);
    const operation = child(el, 'tikR', 'Operacion');
    child(operation, 'tik', 'TipoOperacion', line.operation);
    optional(operation, 'tik', 'Subsanacion', line.flags?.subsanacion);
    optional(operation, 'tik', 'RechazoPrevio', line.flags?.rechazoPrevio);
    optional(operation, 'tik', 'SinRegistroPrevio', line.flags?.sinRegistroPrevio);
    optional(el, 'tikR', 'RefExterna', line.externalRef);
    child(el, 'tikR', 'EstadoRegistro', line.rawState ?? line.state);
    optional(el, 'tikR', 'CodigoErrorRegistro', line.errorCode?.toString());
    optional(el, 'tikR', 'DescripcionErrorRegistro', line.errorDescription);
    if (line.duplicate) {
      const duplicate = child(el, 'tikR', 'RegistroDuplicado');
      child(duplicate, 'tik', 'IdPeticionRegistroDuplicado', line.duplicate.requestId);
      child(duplicate, 'tik', 'EstadoRegistroDuplicado', line.duplicate.state);
      optional(duplicate, 'tik', 'CodigoErrorRegistro', line.duplicate.errorCode?.toString());
      optional(duplicate, 'tik', 'DescripcionErrorRegistro', line.duplicate.errorDescription);
    }
  }
  return serialize(doc);
}
