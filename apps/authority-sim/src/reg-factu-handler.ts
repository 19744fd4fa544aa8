import type { ChainRecord } from '@vf/core';
import {
  aeatErrorText,
  buildRegFactuResponse,
  readRegFactuRequest,
  type OperationFlags,
  type ResponseLine,
  type SubmissionHeader,
  type XmlNode,
} from '@vf/xml';
import { admissibleError } from './admissible-rules';
import { increment } from './counters';
import { flagError, matrixError, updatesHeld } from './operations-matrix';
import { blockingError, cancellationBlockingError } from './record-rules';
import type { StoredRecord } from './registry';
import { mayActFor, type EnvironmentState, type SimulatorContext } from './simulator-context';
import { clientFault, ok, type SoapOutcome } from './soap-outcome';
import { madridTimestamp } from './spain-time';

const DESCRIPTION_MAX = 500;
const PRESENTER_MAY_NOT_UPDATE = 3003;
const ENTERED_THROUGH_WEB_FORM = 3004;
const ISSUER_NOT_OBLIGADO = 1108;

function describe(code: number, detail = ''): string {
  return `${aeatErrorText(code) ?? 'Registro rechazado por el simulador'}${detail}`.slice(0, DESCRIPTION_MAX);
}

function sendState(lines: ResponseLine[]): 'Correcto' | 'ParcialmenteCorrecto' | 'Incorrecto' {
  if (lines.every((l) => l.state === 'Correcto')) return 'Correcto';
  if (lines.every((l) => l.state === 'Incorrecto')) return 'Incorrecto';
  return 'ParcialmenteCorrecto';
}

const DUPLICATE_STATE = { Correcto: 'Correcta', AceptadoConErrores: 'AceptadaConErrores', Anulado: 'Anulada' } as const;

/** The Operacion of a response line echoes the flags the record carried. */
function echoedFlags(record: ChainRecord): OperationFlags | undefined {
  const flags: OperationFlags = {};
  if (record.kind === 'cancellation') {
    if (record.rechazoPrevio) flags.rechazoPrevio = 'S';
    if (record.sinRegistroPrevio) flags.sinRegistroPrevio = 'S';
  } else {
    if (record.flags?.subsanacion) flags.subsanacion = 'S';
    if (record.flags?.rechazoPrevio) flags.rechazoPrevio = record.flags.rechazoPrevio;
  }
  return Object.keys(flags).length ? flags : undefined;
}

interface Presentation {
  requestId: string;
  csv: string;
  presenterNif: string;
  presentedAt: string;
  incident: boolean;
}

/**
 * A presenter may update (subsanar, anular) what it presented, or what the taxpayer presented itself; a colaborador
 * social may not update a record another colaborador social presented (3003). How AEAT draws this line is not
 * documented; this is the simulator's model of it.
 */
function mayUpdate(ctx: SimulatorContext, held: StoredRecord, holderNif: string, taxpayerNif: string): boolean {
  const byAnotherCollaborator =
    held.presenterNif !== holderNif && held.presenterNif !== taxpayerNif && ctx.collaboratorNifs.has(held.presenterNif);
  return holderNif === taxpayerNif || !byAnotherCollaborator;
}

function processRecord(
  ctx: SimulatorContext,
  env: EnvironmentState,
  header: SubmissionHeader,
  record: ChainRecord,
  presentation: Presentation,
): ResponseLine {
  const { counters, behaviour } = ctx;
  const { registry } = env;
  const now = ctx.now();
  const line: ResponseLine = { id: record.id, operation: record.kind === 'cancellation' ? 'Anulacion' : 'Alta', state: 'Incorrecto' };
  const flags = echoedFlags(record);
  if (flags) line.flags = flags;
  if (record.externalRef !== undefined) line.externalRef = record.externalRef;
  const reject = (code: number) => {
    line.errorCode = code;
    line.errorDescription = describe(code);
    counters.recordsRejected += 1;
    increment(counters.lineCodes, code);
    return line;
  };

  const plan = behaviour.rejectRecords;
  if (plan.next && plan.next > 0 && plan.code !== undefined) {
    plan.next -= 1;
    registry.chainsToLastReceived(record);
    return reject(plan.code);
  }

  // Flags and the issuer are judged before what is held: the invoice key only means something for the header's taxpayer.
  const earlyCode = flagError(record) ?? (record.id.issuerNif !== header.obligado.nif ? ISSUER_NOT_OBLIGADO : undefined);
  if (earlyCode !== undefined) {
    registry.chainsToLastReceived(record);
    return reject(earlyCode);
  }

  const held = registry.find(record.id);
  const refused = matrixError(record, held);
  if (refused?.duplicate) {
    // A resend of something held: not a new link, so the chain tracking is left alone.
    counters.duplicates += 1;
    reject(refused.code);
    const dup = refused.duplicate;
    line.duplicate = {
      requestId: dup.requestId,
      state: DUPLICATE_STATE[dup.state],
      ...(dup.errorCode !== undefined ? { errorCode: dup.errorCode, errorDescription: dup.errorDescription } : {}),
    };
    return line;
  }

  if (!registry.chainsToLastReceived(record)) counters.chainMismatches += 1;
  if (refused) return reject(refused.code);
  if (held?.viaForm && updatesHeld(record, held)) return reject(ENTERED_THROUGH_WEB_FORM);
  if (held && updatesHeld(record, held) && !mayUpdate(ctx, held, presentation.presenterNif, header.obligado.nif)) {
    return reject(PRESENTER_MAY_NOT_UPDATE);
  }
  const blockingCtx = { headerNif: header.obligado.nif, unknownNifs: ctx.unknownNifs, now };
  const blocking = record.kind === 'cancellation' ? cancellationBlockingError(record, blockingCtx) : blockingError(record, blockingCtx);
  if (blocking !== undefined) return reject(blocking);

  const admissible = admissibleError(record, {
    now,
    toleranceSeconds: behaviour.timestampToleranceSeconds,
    chainExists: registry.chainHead(record) !== undefined,
  });
  line.state = admissible ? 'AceptadoConErrores' : 'Correcto';
  if (admissible) {
    line.errorCode = admissible.code;
    line.errorDescription = describe(admissible.code, admissible.detail);
    counters.recordsAcceptedWithErrors += 1;
    increment(counters.lineCodes, admissible.code);
  }
  const outcome = { state: line.state, ...(admissible ? { errorCode: line.errorCode, errorDescription: line.errorDescription } : {}) };
  if (record.kind === 'cancellation') registry.putCancellation(record, outcome, presentation);
  else registry.putAlta(record, outcome, presentation);
  counters.recordsRegistered += 1;
  (counters.registeredByNif[record.id.issuerNif] ??= []).push({
    invoiceNumber: record.id.invoiceNumber,
    invoiceDate: record.id.invoiceDate,
    operation: line.operation,
    ...(record.kind !== 'cancellation' && record.flags?.subsanacion ? { correction: true as const } : {}),
    state: line.state,
    hash: record.hash,
    environment: env.name,
  });
  return line;
}

/** RegFactuSistemaFacturacion after schema validation: header checks, then each record in order. */
export function handleRegFactu(ctx: SimulatorContext, env: EnvironmentState, payload: XmlNode, holderNif: string | null): SoapOutcome {
  const { counters } = ctx;
  counters.regFactuRequests += 1;
  const { header, records } = readRegFactuRequest(payload);
  counters.recordsReceived += records.length;
  counters.maxRecordsPerMessage = Math.max(counters.maxRecordsPerMessage, records.length);

  if (holderNif === null) return clientFault(4108);
  if (!mayActFor(ctx, holderNif, header.obligado.nif)) return clientFault(4112);
  if (ctx.unknownNifs.has(header.obligado.nif)) {
    return clientFault(4104, `. NIF:${header.obligado.nif}. NOMBRE_RAZON:${header.obligado.name}`);
  }

  const now = ctx.now();
  if (env.flow.isViolation(header.obligado.nif, records.length, now)) {
    counters.flowControlViolations += 1;
    ctx.log(`flow control (${env.name}): ${header.obligado.nif} sent ${records.length} records before TiempoEsperaEnvio elapsed`);
  }
  const presentation: Presentation = {
    requestId: env.registry.nextRequestId(now),
    csv: env.registry.newCsv(),
    presenterNif: holderNif,
    presentedAt: madridTimestamp(now),
    incident: header.incident === true,
  };
  const lines = records.map((record) => processRecord(ctx, env, header, record, presentation));
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
