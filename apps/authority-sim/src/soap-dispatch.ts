import { extractSoapPayload, NS, soapBodyPayload, validateAgainstXsd, type XmlNode, type XsdTarget } from '@vf/xml';
import { handleConsulta, prepareConsulta } from './consulta-handler';
import { increment } from './counters';
import { handleRegFactu, prepareRegFactu, type PreparedRegFactu } from './reg-factu-handler';
import { checkSignatures } from './signature-checks';
import type { EnvironmentState, SimulatorContext } from './simulator-context';
import { clientFault, type SoapOutcome } from './soap-outcome';
import { schemaFault } from './schema-fault';

// One SOAP POST, in the order the authority refuses things: an empty or wrongly encoded request (4138, 4119), XML it
// cannot parse (4103), an unknown operation (4102), the limits and header values it names with their own codes,
// record values of the wrong form (each record rejected with its own code), then the schemas (4102), then the
// operation's handler.

const DECLARED_ENCODING = /^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

type Prepared = { kind: 'RegFactu'; prepared: PreparedRegFactu } | { kind: 'Consulta'; payload: XmlNode };

const OPERATIONS = {
  RegFactuSistemaFacturacion: { namespace: NS.suministroLR, schema: 'request' as XsdTarget },
  ConsultaFactuSistemaFacturacion: { namespace: NS.consultaLR, schema: 'consulta-request' as XsdTarget },
} as const;
type OperationName = keyof typeof OPERATIONS;

function decode(ctx: SimulatorContext, bytes: Buffer): string | SoapOutcome {
  const fault = (code: number) => clientFault(code, '', ctx.behaviour.ruleSet);
  const head = bytes.subarray(0, 200).toString('latin1');
  if (head.trim() === '' && bytes.toString('latin1').trim() === '') return fault(4138);
  const declared = DECLARED_ENCODING.exec(head)?.[1];
  if (declared && !/^utf-?8$/i.test(declared)) return fault(4138);
  try {
    return UTF8.decode(bytes);
  } catch {
    return fault(4119);
  }
}

const SIGNATURE = /<((?:[\w.-]+:)?)Signature\b[\s\S]*?<\/\1Signature\s*>/g;

/**
 * The message with its records' signatures cut out, for the record model, which never reads them: a signature is
 * checked on the record's raw bytes (checkSignatures) and is more than half of a signed record's bytes, so parsing
 * without them reads a message of signed records in about two thirds of the time.
 */
function withoutSignatures(xml: string): string {
  return xml.includes('Signature') ? xml.replace(SIGNATURE, '') : xml;
}

/** The payload's operation, checked against its namespace when the schemas are checked. */
async function operationOf(ctx: SimulatorContext, xml: string): Promise<SoapOutcome | { name: OperationName; payload: XmlNode }> {
  const ruleSet = ctx.behaviour.ruleSet;
  if (ctx.behaviour.validateSchema) {
    let extracted: { localName: string; namespace: string | null };
    try {
      extracted = await extractSoapPayload(xml);
    } catch {
      return clientFault(4103, '', ruleSet);
    }
    const known = OPERATIONS[extracted.localName as OperationName];
    if (!known || known.namespace !== extracted.namespace)
      return clientFault(4102, ` Elemento no esperado: ${extracted.localName}`, ruleSet);
  }
  let parsed: { name: string; node: XmlNode };
  try {
    parsed = soapBodyPayload(withoutSignatures(xml));
  } catch {
    return clientFault(4103, '', ruleSet);
  }
  if (!(parsed.name in OPERATIONS)) return clientFault(4102, ` Elemento no esperado: ${parsed.name}`, ruleSet);
  return { name: parsed.name as OperationName, payload: parsed.node };
}

const RECORD_ELEMENT = /<((?:[\w.-]+:)?)RegistroFactura(?:\s[^>]*)?(?:\/>|>[\s\S]*?<\/\1RegistroFactura\s*>)/g;

/** The message without the records already rejected for the form of a value, for the schema check of the rest. */
function withoutRecords(xml: string, cut: ReadonlySet<number>): string {
  let index = -1;
  return xml.replace(RECORD_ELEMENT, (element) => (cut.has(++index) ? '' : element));
}

async function schemaCheck(xml: string, schema: XsdTarget, cut: ReadonlySet<number>, total: number): Promise<string | undefined> {
  const verdict = await validateAgainstXsd(cut.size ? withoutRecords(xml, cut) : xml, schema);
  // With every record cut, the schema misses RegistroFactura: that is not the sender's error.
  const errors = cut.size === total ? verdict.errors.filter((e) => !/RegistroFactura/.test(e)) : verdict.errors;
  return verdict.valid || errors.length === 0 ? undefined : errors[0];
}

async function answer(ctx: SimulatorContext, env: EnvironmentState, bytes: Buffer, holderNif: string | null): Promise<SoapOutcome> {
  const xml = decode(ctx, bytes);
  if (typeof xml !== 'string') return xml;
  const operation = await operationOf(ctx, xml);
  if ('status' in operation) return operation;
  let prepared: Prepared;
  if (operation.name === 'RegFactuSistemaFacturacion') {
    const regFactu = prepareRegFactu(ctx, operation.payload);
    if ('status' in regFactu) return regFactu;
    prepared = { kind: 'RegFactu', prepared: regFactu };
  } else {
    const fault = prepareConsulta(ctx, operation.payload);
    if (fault) return fault;
    prepared = { kind: 'Consulta', payload: operation.payload };
  }
  if (ctx.behaviour.validateSchema) {
    const cut = prepared.kind === 'RegFactu' ? prepared.prepared.rejectedForForm : new Set<number>();
    const total = prepared.kind === 'RegFactu' ? prepared.prepared.items.length : 0;
    const error = await schemaCheck(xml, OPERATIONS[operation.name].schema, cut, total);
    if (error !== undefined) return schemaFault(ctx.behaviour.ruleSet, error);
    if (prepared.kind === 'RegFactu') checkSignatures(ctx, xml);
  }
  return prepared.kind === 'RegFactu'
    ? handleRegFactu(ctx, env, prepared.prepared, holderNif)
    : handleConsulta(ctx, env, prepared.payload, holderNif);
}

/** One SOAP POST to an environment's endpoint; counts the Faults the rules answered. */
export async function dispatchSoap(
  ctx: SimulatorContext,
  env: EnvironmentState,
  bytes: Buffer,
  holderNif: string | null,
): Promise<SoapOutcome> {
  let outcome: SoapOutcome;
  try {
    outcome = await answer(ctx, env, bytes, holderNif);
  } catch (error) {
    ctx.log(`could not process a request: ${(error as Error).message}`);
    outcome = clientFault(4102, ` ${(error as Error).message}`, ctx.behaviour.ruleSet);
  }
  if (outcome.faultCode !== undefined) {
    ctx.counters.faults.clientFault += 1;
    increment(ctx.counters.faultCodes, outcome.faultCode);
  }
  return outcome;
}
