import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import {
  buildRecordValidationReply,
  parseRegFactuReply,
  parseXml,
  regFactuRequestFrame,
  text,
  type RecordValidationReply,
  type XmlNode,
} from '@vf/xml';
import { certificateHolderNif } from '../client-certificate';
import { createCounters } from '../counters';
import { FaultBook } from '../faults/fault-book';
import { FlowControl } from '../flow-control';
import { BodyTooLargeError, readBytes, send, XML } from '../http-io';
import { Registry } from '../registry';
import { codeText } from '../rules/rule-set';
import type { EnvironmentState, SimulatorContext } from '../simulator-context';
import { dispatchSoap } from '../soap-dispatch';

/** One record is a few kilobytes; the registration service's own limit for a whole message is far above. */
const MAX_RECORD_BYTES = 1024 * 1024;
const XML_DECLARATION = /^\s*<\?xml[^>]*\?>/;

function formatError(ctx: SimulatorContext, code: number, detail = ''): RecordValidationReply {
  return { kind: 'format_error', description: `Código[${code}].${codeText(ctx.behaviour.ruleSet, code, detail)}` };
}

/** The record's taxpayer, for the header of the message it is judged in: the issuer of the alta, or of the cancelled invoice. */
function obligadoOf(root: XmlNode, kind: 'RegistroAlta' | 'RegistroAnulacion'): { name: string; nif: string } {
  const id = (root.IDFactura ?? {}) as XmlNode;
  const nif = text(id, kind === 'RegistroAlta' ? 'IDEmisorFactura' : 'IDEmisorFacturaAnulada') ?? '';
  return { nif, name: text(root, 'NombreRazonEmisor') ?? nif };
}

/**
 * Judges one record as the registration service would, in a context of its own: a registry that holds nothing and
 * keeps nothing, counters and faults of its own. So the record is checked for form (schemas) and rules, and whatever
 * the answer, the simulator holds what it held before.
 */
async function judge(ctx: SimulatorContext, record: string, holderNif: string | null): Promise<RecordValidationReply> {
  let doc: XmlNode;
  try {
    doc = parseXml(record);
  } catch {
    return formatError(ctx, 4103);
  }
  const kind = doc.RegistroAlta !== undefined ? 'RegistroAlta' : doc.RegistroAnulacion !== undefined ? 'RegistroAnulacion' : undefined;
  if (!kind) return formatError(ctx, 4102, ` Elemento no esperado: ${Object.keys(doc)[0] ?? ''}`);
  const frame = regFactuRequestFrame({ obligado: obligadoOf(doc[kind] as XmlNode, kind) });
  const message = `${frame.head}${frame.open}${record.replace(XML_DECLARATION, '')}${frame.close}${frame.tail}`;
  const scratch: EnvironmentState = { name: 'sandbox', service: 'verifactu', registry: new Registry(), flow: new FlowControl() };
  const alone: SimulatorContext = {
    ...ctx,
    counters: createCounters(),
    faults: new FaultBook(),
    requests: [],
    environments: { sandbox: scratch, production: scratch, scenarios: scratch },
  };
  const outcome = await dispatchSoap(alone, scratch, Buffer.from(message, 'utf8'), holderNif);
  const reply = parseRegFactuReply(outcome.body);
  // The fault's "Codigo[N].text", as the service writes it in this answer (its examples: "Código[4102]. El XML …").
  if (reply.kind === 'fault') return { kind: 'format_error', description: reply.message.replace(/^Codigo\[/, 'Código[') };
  const [line] = reply.lines;
  return {
    kind: 'validated',
    id: line.id,
    operation: line.operation,
    ...(line.flags && { flags: line.flags }),
    ...(line.externalRef !== undefined && { externalRef: line.externalRef }),
    state: line.state === 'Unknown' ? 'Incorrecto' : line.state,
    ...(line.errorCode !== undefined && { errorCode: line.errorCode, errorDescription: line.errorDescription }),
  };
}

/**
 * ValRegistroNoVerifactu: one bare RegistroAlta or RegistroAnulacion per request (no SOAP envelope, signature not
 * checked), answered with RespuestaValContenidoFactuSistemaFacturacion (RespuestaValRegistNoVeriFactu.xsd).
 */
export async function validationPost(ctx: SimulatorContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  ctx.counters.requests += 1;
  let bytes: Buffer;
  try {
    bytes = await readBytes(req, MAX_RECORD_BYTES);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    return send(res, 200, XML, buildRecordValidationReply(formatError(ctx, 4114)));
  }
  const reply = await judge(ctx, bytes.toString('utf8'), certificateHolderNif(req.socket as TLSSocket));
  if (reply.kind === 'validated') ctx.counters.recordsValidated += 1;
  send(res, 200, XML, buildRecordValidationReply(reply));
}
