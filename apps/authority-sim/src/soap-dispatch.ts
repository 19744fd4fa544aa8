import { extractSoapPayload, NS, validateAgainstXsd } from '@vf/xml';
import { handleConsulta } from './consulta-handler';
import { increment } from './counters';
import { handleRegFactu } from './reg-factu-handler';
import type { EnvironmentState, SimulatorContext } from './simulator-context';
import { clientFault, type SoapOutcome } from './soap-outcome';

const MAX_RECORDS = 1000;
const REGISTRO_FACTURA = /<(?:[\w.-]+:)?RegistroFactura[\s>]/g;

function schemaCheck(ctx: SimulatorContext, xml: string, which: 'request' | 'consulta-request') {
  return ctx.behaviour.validateSchema ? validateAgainstXsd(xml, which) : Promise.resolve({ valid: true, errors: [] });
}

async function answer(ctx: SimulatorContext, env: EnvironmentState, xml: string, holderNif: string | null): Promise<SoapOutcome> {
  let payload: { localName: string; namespace: string | null };
  try {
    payload = extractSoapPayload(xml);
  } catch {
    return clientFault(4103);
  }
  if (payload.localName === 'RegFactuSistemaFacturacion' && payload.namespace === NS.suministroLR) {
    if ((xml.match(REGISTRO_FACTURA)?.length ?? 0) > MAX_RECORDS) return clientFault(4113);
    const schema = await schemaCheck(ctx, xml, 'request');
    if (!schema.valid) return clientFault(4102, ` ${schema.errors[0] ?? ''}`.trimEnd());
    return handleRegFactu(ctx, env, xml, holderNif);
  }
  if (payload.localName === 'ConsultaFactuSistemaFacturacion' && payload.namespace === NS.consultaLR) {
    const schema = await schemaCheck(ctx, xml, 'consulta-request');
    if (!schema.valid) return clientFault(4102, ` ${schema.errors[0] ?? ''}`.trimEnd());
    return handleConsulta(ctx, env, xml, holderNif);
  }
  return clientFault(4102, ` Elemento no esperado: ${payload.localName}`);
}

/** One SOAP POST to an environment's endpoint: validate against the schemas, route by operation, count faults. */
export async function dispatchSoap(ctx: SimulatorContext, env: EnvironmentState, xml: string, holderNif: string | null): Promise<SoapOutcome> {
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
