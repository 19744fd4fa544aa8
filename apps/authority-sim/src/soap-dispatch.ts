import { extractSoapPayload, NS, soapBodyPayload, validateAgainstXsd, type XmlNode } from '@vf/xml';
import { handleConsulta } from './consulta-handler';
import { increment } from './counters';
import { handleRegFactu } from './reg-factu-handler';
import { checkSignatures } from './signature-checks';
import type { EnvironmentState, SimulatorContext } from './simulator-context';
import { clientFault, type SoapOutcome } from './soap-outcome';

const MAX_RECORDS = 1000;
const REGISTRO_FACTURA = /<(?:[\w.-]+:)?RegistroFactura[\s>]/g;

const OPERATIONS = {
  RegFactuSistemaFacturacion: { namespace: NS.suministroLR, schema: 'request', handle: handleRegFactu },
  ConsultaFactuSistemaFacturacion: { namespace: NS.consultaLR, schema: 'consulta-request', handle: handleConsulta },
} as const;

/**
 * The Body's operation and its parsed payload. With schema validation on, the payload's namespace is checked and the
 * message validated against the XSDs as AEAT does; off, the message is read once and routed by its operation's name
 * (as the banner says, a malformed message is then not faulted).
 */
async function route(ctx: SimulatorContext, xml: string): Promise<SoapOutcome | { operation: keyof typeof OPERATIONS; payload: XmlNode }> {
  let name: string;
  if (ctx.behaviour.validateSchema) {
    let extracted: { localName: string; namespace: string | null };
    try {
      extracted = await extractSoapPayload(xml);
    } catch {
      return clientFault(4103);
    }
    const known = OPERATIONS[extracted.localName as keyof typeof OPERATIONS];
    if (!known || known.namespace !== extracted.namespace) return clientFault(4102, ` Elemento no esperado: ${extracted.localName}`);
    if (extracted.localName === 'RegFactuSistemaFacturacion' && (xml.match(REGISTRO_FACTURA)?.length ?? 0) > MAX_RECORDS)
      return clientFault(4113);
    const schema = await validateAgainstXsd(xml, known.schema);
    if (!schema.valid) return clientFault(4102, ` ${schema.errors[0] ?? ''}`.trimEnd());
    if (extracted.localName === 'RegFactuSistemaFacturacion') checkSignatures(ctx, xml);
    name = extracted.localName;
  }
  let parsed: { name: string; node: XmlNode };
  try {
    // Well-formedness was checked by the extraction above, or is not faulted at all with validation off.
    parsed = soapBodyPayload(xml, { lenient: true });
  } catch {
    return clientFault(4103);
  }
  name ??= parsed.name;
  if (!(name in OPERATIONS)) return clientFault(4102, ` Elemento no esperado: ${name}`);
  if (name === 'RegFactuSistemaFacturacion' && ((parsed.node.RegistroFactura as unknown[] | undefined)?.length ?? 0) > MAX_RECORDS)
    return clientFault(4113);
  return { operation: name as keyof typeof OPERATIONS, payload: parsed.node };
}

async function answer(ctx: SimulatorContext, env: EnvironmentState, xml: string, holderNif: string | null): Promise<SoapOutcome> {
  const routed = await route(ctx, xml);
  if (!('operation' in routed)) return routed;
  return OPERATIONS[routed.operation].handle(ctx, env, routed.payload, holderNif);
}

/** One SOAP POST to an environment's endpoint: validate against the schemas, route by operation, count faults. */
export async function dispatchSoap(
  ctx: SimulatorContext,
  env: EnvironmentState,
  xml: string,
  holderNif: string | null,
): Promise<SoapOutcome> {
  let outcome: SoapOutcome;
  try {
    outcome = await answer(ctx, env, xml, holderNif);
  } catch (error) {
    ctx.log(`could not process a request: ${(error as Error).message}`);
    outcome = clientFault(4102, ` ${(error as Error).message}`);
  }
  if (outcome.faultCode !== undefined) {
    ctx.counters.faults.clientFault += 1;
    increment(ctx.counters.faultCodes, outcome.faultCode);
  }
  return outcome;
}
