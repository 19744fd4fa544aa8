import { readInvoiceId } from './build-reg-factu-request';
import { readSoapFault } from './parse-soap-fault';
import type { OperationFlags, ParsedReply, RecordState, ResponseLine, SubmissionResponse } from './types';
import { node, nodes, requiredNode, requiredText, soapBodyPayload, text, XmlFormatError, type XmlNode } from './xml-reader';

function optionalNumber(value: string | undefined): number | undefined {
  return value === undefined || value === '' ? undefined : Number(value);
}

const RECORD_STATES: readonly string[] = ['Correcto', 'AceptadoConErrores', 'Incorrecto'] satisfies RecordState[];
const SEND_STATES: readonly string[] = ['Correcto', 'ParcialmenteCorrecto', 'Incorrecto'] satisfies SubmissionResponse['sendState'][];

function readFlags(operation: XmlNode): OperationFlags | undefined {
  const flags: OperationFlags = {};
  const subsanacion = text(operation, 'Subsanacion');
  const rechazoPrevio = text(operation, 'RechazoPrevio');
  const sinRegistroPrevio = text(operation, 'SinRegistroPrevio');
  if (subsanacion !== undefined) flags.subsanacion = subsanacion as OperationFlags['subsanacion'];
  if (rechazoPrevio !== undefined) flags.rechazoPrevio = rechazoPrevio as OperationFlags['rechazoPrevio'];
  if (sinRegistroPrevio !== undefined) flags.sinRegistroPrevio = sinRegistroPrevio as OperationFlags['sinRegistroPrevio'];
  return Object.keys(flags).length ? flags : undefined;
}

function readLine(el: XmlNode): ResponseLine {
  const operation = requiredNode(el, 'Operacion');
  const state = requiredText(el, 'EstadoRegistro');
  const line: ResponseLine = {
    id: readInvoiceId(requiredNode(el, 'IDFactura')),
    operation: requiredText(operation, 'TipoOperacion') as ResponseLine['operation'],
    // A value outside L19 is an answer nobody can judge: keep it as said rather than fail the whole reply.
    state: RECORD_STATES.includes(state) ? (state as RecordState) : 'Unknown',
  };
  if (line.state === 'Unknown') line.rawState = state;
  const flags = readFlags(operation);
  if (flags) line.flags = flags;
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
  const sendState = requiredText(el, 'EstadoEnvio');
  const response: SubmissionResponse = {
    kind: 'response',
    waitSeconds: Number(requiredText(el, 'TiempoEsperaEnvio')),
    sendState: SEND_STATES.includes(sendState) ? (sendState as SubmissionResponse['sendState']) : 'Unknown',
    lines: nodes(el, 'RespuestaLinea').map(readLine),
  };
  if (response.sendState === 'Unknown') response.rawSendState = sendState;
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
