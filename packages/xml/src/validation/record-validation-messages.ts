import type { InvoiceId } from '@vf/core';
import { readInvoiceId, writeInvoiceId } from '../build-reg-factu-request';
import type { OperationFlags, RecordState } from '../types';
import { bareDocument, child, optional, serialize } from '../xml-writer';
import { parseXml, requiredNode, requiredText, text, XmlFormatError, type XmlNode } from '../xml-reader';

/**
 * What the authority's validation service for NO VERI*FACTU records (ValRegistroNoVerifactu, test environment only)
 * answers about one record (RespuestaValRegistNoVeriFactu.xsd): its form refused as a whole, or the record judged as
 * the registration service would judge it, with nothing stored.
 */
export type RecordValidationReply =
  | { kind: 'format_error'; description: string }
  | {
      kind: 'validated';
      id: InvoiceId;
      operation: 'Alta' | 'Anulacion';
      flags?: OperationFlags;
      externalRef?: string;
      state: RecordState;
      errorCode?: number;
      errorDescription?: string;
    };

/** RespuestaValContenidoFactuSistemaFacturacion, a bare document as the service answers it (no SOAP envelope, unsigned). */
export function buildRecordValidationReply(reply: RecordValidationReply): string {
  const root = bareDocument({ prefix: 'sfR', name: 'RespuestaValContenidoFactuSistemaFacturacion' }, ['tik']);
  if (reply.kind === 'format_error') {
    child(root, 'sfR', 'DescripcionErrorFormatoXML', reply.description);
    return serialize(root);
  }
  const answer = child(root, 'sfR', 'RespuestaValidacion');
  writeInvoiceId(child(answer, 'sfR', 'IDFactura'), 'tik', reply.id);
  const operation = child(answer, 'sfR', 'Operacion');
  child(operation, 'tik', 'TipoOperacion', reply.operation);
  optional(operation, 'tik', 'Subsanacion', reply.flags?.subsanacion);
  optional(operation, 'tik', 'RechazoPrevio', reply.flags?.rechazoPrevio);
  optional(operation, 'tik', 'SinRegistroPrevio', reply.flags?.sinRegistroPrevio);
  optional(answer, 'sfR', 'RefExterna', reply.externalRef);
  child(answer, 'sfR', 'EstadoRegistro', reply.state);
  optional(answer, 'sfR', 'CodigoErrorRegistro', reply.errorCode?.toString());
  optional(answer, 'sfR', 'DescripcionErrorRegistro', reply.errorDescription);
  return serialize(root);
}

const STATES: readonly RecordState[] = ['Correcto', 'AceptadoConErrores', 'Incorrecto'];

/** Reads the validation service's answer; throws XmlFormatError on anything else. */
export function parseRecordValidationReply(xml: string): RecordValidationReply {
  const root = parseXml(xml).RespuestaValContenidoFactuSistemaFacturacion as XmlNode | undefined;
  if (!root || typeof root !== 'object') throw new XmlFormatError('not a RespuestaValContenidoFactuSistemaFacturacion');
  const formatError = text(root, 'DescripcionErrorFormatoXML');
  if (formatError !== undefined) return { kind: 'format_error', description: formatError };
  const answer = requiredNode(root, 'RespuestaValidacion');
  const state = requiredText(answer, 'EstadoRegistro') as RecordState;
  if (!STATES.includes(state)) throw new XmlFormatError(`unknown EstadoRegistro ${state}`);
  const operation = requiredText(requiredNode(answer, 'Operacion'), 'TipoOperacion');
  const code = text(answer, 'CodigoErrorRegistro');
  const reply: RecordValidationReply = {
    kind: 'validated',
    id: readInvoiceId(requiredNode(answer, 'IDFactura')),
    operation: operation === 'Anulacion' ? 'Anulacion' : 'Alta',
    state,
  };
  const externalRef = text(answer, 'RefExterna');
  if (externalRef !== undefined) reply.externalRef = externalRef;
  if (code !== undefined) reply.errorCode = Number(code);
  const description = text(answer, 'DescripcionErrorRegistro');
  if (description !== undefined) reply.errorDescription = description;
  return reply;
}
