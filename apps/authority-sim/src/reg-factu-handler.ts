import type { ChainRecord } from '@vf/core';
import { buildRegFactuResponse, node, nodes, readHeader, readRegistroFactura, text, type ResponseLine, type XmlNode } from '@vf/xml';
import { headerContentError, headerSyntaxError } from './rules/header-rules';
import { messageStructureError } from './rules/message-rules';
import { recordIdOf, unanswerableIdField } from './rules/record-id';
import { recordSyntaxError } from './rules/record-rules';
import type { RecordItem } from './record-line';
import { processRecord, type Presentation } from './record-processing';
import { authorityNow, mayActFor, ruleContext, type EnvironmentState, type SimulatorContext } from './simulator-context';
import { clientFault, ok, type SoapOutcome } from './soap-outcome';
import { madridTimestamp } from './spain-time';

/** A RegFactuSistemaFacturacion read and checked for form, ready for the schemas and the handler. */
export interface PreparedRegFactu {
  payload: XmlNode;
  items: RecordItem[];
  /** Indexes of the records rejected for the form of a value: the schema check leaves them out. */
  rejectedForForm: Set<number>;
}

function sendState(lines: ResponseLine[]): 'Correcto' | 'ParcialmenteCorrecto' | 'Incorrecto' {
  if (lines.every((l) => l.state === 'Correcto')) return 'Correcto';
  if (lines.every((l) => l.state === 'Incorrecto')) return 'Incorrecto';
  return 'ParcialmenteCorrecto';
}

/**
 * Limits and header values refuse the whole message (SOAP Fault); a record whose values have the wrong form is
 * marked to be rejected alone, unless the answer line could not even name it (then the message fails its schema).
 */
export function prepareRegFactu(ctx: SimulatorContext, payload: XmlNode): PreparedRegFactu | SoapOutcome {
  const ruleSet = ctx.behaviour.ruleSet;
  const structure = messageStructureError(payload);
  if (structure) return clientFault(structure, '', ruleSet);
  const cabecera = node(payload, 'Cabecera') ?? {};
  const headerCode = headerSyntaxError(cabecera);
  if (headerCode) return clientFault(headerCode, '', ruleSet);
  const rules = ruleContext(ctx, text(node(cabecera, 'ObligadoEmision') ?? {}, 'NIF') ?? '');
  const items: RecordItem[] = [];
  const rejectedForForm = new Set<number>();
  for (const [index, registro] of nodes(payload, 'RegistroFactura').entries()) {
    const kind = registro.RegistroAnulacion !== undefined ? 'anulacion' : 'alta';
    const raw = node(registro, kind === 'alta' ? 'RegistroAlta' : 'RegistroAnulacion') ?? {};
    const item: RecordItem = { kind, raw, id: recordIdOf(raw, kind) };
    const formError = recordSyntaxError(kind, raw, rules);
    if (formError) {
      const unanswerable = unanswerableIdField(item.id);
      if (unanswerable) return clientFault(4102, `: ${unanswerable}`, ruleSet);
      item.formError = formError;
      rejectedForForm.add(index);
    }
    items.push(item);
  }
  return { payload, items, rejectedForForm };
}

/** RegFactuSistemaFacturacion after the schema check: who sends, the header's meaning, then each record in order. */
export function handleRegFactu(
  ctx: SimulatorContext,
  env: EnvironmentState,
  prepared: PreparedRegFactu,
  holderNif: string | null,
): SoapOutcome {
  const { counters } = ctx;
  const ruleSet = ctx.behaviour.ruleSet;
  const { items, payload } = prepared;
  counters.regFactuRequests += 1;
  counters.recordsReceived += items.length;
  counters.maxRecordsPerMessage = Math.max(counters.maxRecordsPerMessage, items.length);
  const cabecera = node(payload, 'Cabecera') ?? {};
  const header = readHeader(cabecera);

  if (holderNif === null) return clientFault(4108, '', ruleSet);
  if (!mayActFor(ctx, holderNif, header.obligado.nif)) return clientFault(4112, '', ruleSet);
  const rules = ruleContext(ctx, header.obligado.nif);
  const issued = (nif: string, reference: string) => ctx.issuedRequirements.get(nif)?.has(reference) === true;
  const headerError = headerContentError(cabecera, rules, env.service === 'requerimiento' ? issued : undefined);
  if (headerError) return clientFault(headerError.code, headerError.detail, ruleSet);
  // Every record the model can read is read before any is stored: a message that cannot be read is refused whole.
  const registros = nodes(payload, 'RegistroFactura');
  const records = items.map((item, i): ChainRecord | undefined => (item.formError ? undefined : readRegistroFactura(registros[i])));

  const now = authorityNow(ctx);
  if (env.flow.isViolation(header.obligado.nif, items.length, now)) {
    counters.flowControlViolations += 1;
    ctx.log(`flow control (${env.name}): ${header.obligado.nif} sent ${items.length} records before TiempoEsperaEnvio elapsed`);
  }
  const presentation: Presentation = {
    requestId: env.registry.nextRequestId(now),
    csv: env.registry.newCsv(),
    presenterNif: holderNif,
    presentedAt: madridTimestamp(now),
    incident: header.incident === true,
  };
  const subject = { nif: header.obligado.nif, certificateNif: holderNif, environment: env.name, operation: 'RegFactu' as const };
  if (env.service === 'requerimiento') counters.requirementRecords += items.length;
  const lines = items.map((item, i) => processRecord(ctx, env, { item, record: records[i], header, presentation, rules, subject }));
  const waitSeconds = ctx.behaviour.waitSeconds;
  env.flow.answered(header.obligado.nif, now, waitSeconds);
  const anyAccepted = lines.some((l) => l.state !== 'Incorrecto');
  const body = buildRegFactuResponse({
    header,
    ...(anyAccepted ? { csv: presentation.csv, presenterNif: presentation.presenterNif, presentedAt: presentation.presentedAt } : {}),
    waitSeconds,
    sendState: sendState(lines),
    lines,
  });
  return ok(body);
}
