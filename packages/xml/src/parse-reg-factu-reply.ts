import { readInvoiceId } from './record-xml';
import { readSoapFault } from './parse-soap-fault';
import type { ParsedReply, RecordState, ResponseLine, SubmissionResponse } from './types';
import { node, nodes, requiredNode, requiredText, soapBodyPayload, text, XmlFormatError, type XmlNode } from './xml-reader';

function optionalNumber(value: string | undefined): number | undefined {
  return value === undefined || value === '' ? undefined : Number(value);
}

function readLine(el: XmlNode): ResponseLine {
  const line: ResponseLine = {
    id: readInvoiceId(requiredNode(el, 'IDFactura')),
    operation: requiredText(requiredNode(el, 'Operacion'), 'TipoOperacion') as ResponseLine['operation'],
    state: requiredText(el, 'EstadoRegistro') as RecordState,
  };
  const externalRef = text(el, 'RefExterna');
  if (externalRef !== undefined) line.externalRef = externalRef;
  const errorCode = optionalNumber(text(el, 'CodigoErrorRegistro'));
  if (errorCode !== undefined) line.errorCode = errorCode;
  const errorDescription = text(el, 'DescripcionErrorRegistro');
  if (errorDescription !== undefined) line.errorDescription = errorDescription;
  const duplicate = node(el, 'RegistroDuplicado');
  if (duplicate) {
    line.duplicate = {
      requestId: requiredText(duplicate, 'IdPeticionRegistroDuplicado'),
      state: requiredText(duplicate, 'EstadoRegistroDuplicado') as NonNullable<ResponseLine['duplicate']>['state'],
    };
    const code = optionalNumber(text(duplicate, 'CodigoErrorRegistro'));
    if (code !== undefined) line.duplicate.errorCode = code;
    const description = text(duplicate, 'DescripcionErrorRegistro');
    if (description !== undefined) line.duplicate.errorDescription = description;
  }
  return line;
}

/**
 * Parses AEAT's answer to RegFactuSistemaFacturacion: the response or a SOAP Fault, whatever the HTTP
 * status was. Throws XmlFormatError when the body is neither (an HTML error page, a truncated reply).
 */
export function parseRegFactuReply(xml: string): ParsedReply {
  const payload = soapBodyPayload(xml);
  if (payload.name === 'Fault') return readSoapFault(payload.node);
  if (payload.name !== 'RespuestaRegFactuSistemaFacturacion') throw new XmlFormatError(`unexpected SOAP payload ${payload.name}`);
  const el = payload.node;
  const response: SubmissionResponse = {
    kind: 'response',
    waitSeconds: Number(requiredText(el, 'TiempoEsperaEnvio')),
    sendState: requiredText(el, 'EstadoEnvio') as SubmissionResponse['sendState'],
    lines: nodes(el, 'RespuestaLinea').map(readLine),
  };
  const csv = text(el, 'CSV');
  if (csv) response.csv = csv;
  const presentation = node(el, 'DatosPresentacion');
  if (presentation) {
    response.presenterNif = requiredText(presentation, 'NIFPresentador');
    response.presentedAt = requiredText(presentation, 'TimestampPresentacion');
  }
  if (!Number.isFinite(response.waitSeconds)) throw new XmlFormatError('TiempoEsperaEnvio is not a number');
  return response;
}
