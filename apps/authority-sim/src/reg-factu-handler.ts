import type { RegistrationRecord } from '@vf/core';
import { aeatErrorText, buildRegFactuResponse, parseRegFactuRequest, type ResponseLine, type SubmissionHeader } from '@vf/xml';
import { admissibleError } from './admissible-rules';
import { increment } from './counters';
import { blockingError } from './record-rules';
import { mayActFor, type SimulatorContext } from './simulator-context';
import { clientFault, ok, type SoapOutcome } from './soap-outcome';
import { madridTimestamp } from './spain-time';

const DESCRIPTION_MAX = 500;

function describe(code: number, detail = ''): string {
  return `${aeatErrorText(code) ?? 'Error'}${detail}`.slice(0, DESCRIPTION_MAX);
}

function sendState(lines: ResponseLine[]): 'Correcto' | 'ParcialmenteCorrecto' | 'Incorrecto' {
  if (lines.every((l) => l.state === 'Correcto')) return 'Correcto';
  if (lines.every((l) => l.state === 'Incorrecto')) return 'Incorrecto';
  return 'ParcialmenteCorrecto';
}

interface Presentation {
  requestId: string;
  csv: string;
  presenterNif: string;
  presentedAt: string;
  incident: boolean;
}

function processRecord(ctx: SimulatorContext, header: SubmissionHeader, record: RegistrationRecord, presentation: Presentation): ResponseLine {
  const { counters, registry } = ctx;
  const now = ctx.now();
  const line: ResponseLine = { id: record.id, operation: 'Alta', state: 'Incorrecto' };
  if (record.externalRef !== undefined) line.externalRef = record.externalRef;
  const reject = (code: number) => {
    line.errorCode = code;
    line.errorDescription = describe(code);
    counters.recordsRejected += 1;
    increment(counters.lineCodes, code);
    return line;
  };

  const duplicateOf = registry.find(record.id);
  if (duplicateOf) {
    counters.duplicates += 1;
    reject(3000);
    line.duplicate = {
      requestId: duplicateOf.requestId,
      state: duplicateOf.state === 'Correcto' ? 'Correcta' : 'AceptadaConErrores',
      ...(duplicateOf.errorCode !== undefined ? { errorCode: duplicateOf.errorCode, errorDescription: duplicateOf.errorDescription } : {}),
    };
    return line;
  }

  if (!registry.chainsToLastReceived(record)) counters.chainMismatches += 1;
  const blocking = blockingError(record, { headerNif: header.obligado.nif, unknownNifs: ctx.unknownNifs, now });
  if (blocking !== undefined) return reject(blocking);

  const admissible = admissibleError(record, {
    now,
    toleranceSeconds: ctx.behaviour.timestampToleranceSeconds,
    chainExists: registry.chainHead(record) !== undefined,
  });
  line.state = admissible ? 'AceptadoConErrores' : 'Correcto';
  if (admissible) {
    line.errorCode = admissible.code;
    line.errorDescription = describe(admissible.code, admissible.detail);
    counters.recordsAcceptedWithErrors += 1;
    increment(counters.lineCodes, admissible.code);
  }
  registry.add({
    record,
    state: line.state,
    ...(admissible ? { errorCode: line.errorCode, errorDescription: line.errorDescription } : {}),
    ...presentation,
  });
  counters.recordsRegistered += 1;
  (counters.registeredByNif[record.id.issuerNif] ??= []).push({
    invoiceNumber: record.id.invoiceNumber,
    invoiceDate: record.id.invoiceDate,
    state: line.state,
    hash: record.hash,
  });
  return line;
}

/** RegFactuSistemaFacturacion after schema validation: header checks, then each record in order. */
export function handleRegFactu(ctx: SimulatorContext, xml: string, holderNif: string | null): SoapOutcome {
  const { counters } = ctx;
  counters.regFactuRequests += 1;
  const { header, records } = parseRegFactuRequest(xml);
  counters.recordsReceived += records.length;
  counters.maxRecordsPerMessage = Math.max(counters.maxRecordsPerMessage, records.length);

  if (holderNif === null) return clientFault(4108);
  if (!mayActFor(ctx, holderNif, header.obligado.nif)) return clientFault(4112);
  if (ctx.unknownNifs.has(header.obligado.nif)) {
    return clientFault(4104, `. NIF:${header.obligado.nif}. NOMBRE_RAZON:${header.obligado.name}`);
  }

  const now = ctx.now();
  if (ctx.flow.isViolation(header.obligado.nif, records.length, now)) {
    counters.flowControlViolations += 1;
    ctx.log(`flow control: ${header.obligado.nif} sent ${records.length} records before TiempoEsperaEnvio elapsed`);
  }
  const presentation: Presentation = {
    requestId: ctx.registry.nextRequestId(now),
    csv: ctx.registry.newCsv(),
    presenterNif: holderNif,
    presentedAt: madridTimestamp(now),
    incident: header.incident === true,
  };
  const lines = records.map((record) => processRecord(ctx, header, record, presentation));
  const waitSeconds = ctx.behaviour.waitSeconds;
  ctx.flow.answered(header.obligado.nif, now, waitSeconds);
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
