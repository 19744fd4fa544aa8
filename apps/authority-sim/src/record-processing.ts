import type { ChainRecord } from '@vf/core';
import type { ResponseLine, SubmissionHeader } from '@vf/xml';
import { acceptRecord } from './accept-record';
import { increment } from './counters';
import { describeFinding } from './describe-finding';
import type { FaultSubject } from './faults/fault-types';
import { matrixError, flagError, updatesHeld } from './operations-matrix';
import { chainFactsOf, responseLine, type RecordItem } from './record-line';
import type { StoredRecord } from './registry';
import type { Finding, RuleContext } from './rules/rule-context';
import { recordContentError } from './rules/record-rules';
import { codeLevel, tableEntry } from './rules/rule-set';
import type { EnvironmentState, SimulatorContext } from './simulator-context';

const PRESENTER_MAY_NOT_UPDATE = 3003;
const ENTERED_THROUGH_WEB_FORM = 3004;
const ISSUER_NOT_OBLIGADO = 1108;
const DUPLICATE = 3000;
const DUPLICATE_STATE = { Correcto: 'Correcta', AceptadoConErrores: 'AceptadaConErrores', Anulado: 'Anulada' } as const;

export interface Presentation {
  requestId: string;
  csv: string;
  presenterNif: string;
  presentedAt: string;
  incident: boolean;
}

/** The record being processed and everything its decision may read. */
export interface RecordJob {
  item: RecordItem;
  /** The record as the model reads it; absent when it was rejected for the form of a value. */
  record?: ChainRecord;
  header: SubmissionHeader;
  presentation: Presentation;
  rules: RuleContext;
  subject: FaultSubject;
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

function levelOf(job: RecordJob, code: number) {
  return codeLevel(job.rules.ruleSet, code) ?? tableEntry('current', code)?.level;
}

/** Decides one record, in the order the authority meets its checks, and stores it when it is accepted. */
export function processRecord(ctx: SimulatorContext, env: EnvironmentState, job: RecordJob): ResponseLine {
  const { counters } = ctx;
  const { registry } = env;
  const { item, rules } = job;
  const line = responseLine(item);
  const reject = (f: Finding) => {
    line.errorCode = f.code;
    line.errorDescription = describeFinding(rules, f);
    counters.recordsRejected += 1;
    increment(counters.lineCodes, f.code);
    return line;
  };
  const duplicate = (held: StoredRecord | undefined) => {
    counters.duplicates += 1;
    reject({ code: DUPLICATE });
    if (held && !ctx.faults.take(['duplicateWithoutDetail'], job.subject)) {
      line.duplicate = {
        requestId: held.requestId,
        state: DUPLICATE_STATE[held.state],
        ...(held.errorCode !== undefined ? { errorCode: held.errorCode, errorDescription: held.errorDescription?.slice(0, 500) } : {}),
      };
    }
    return line;
  };

  const injected = ctx.faults.take(['recordCode'], { ...job.subject, invoiceNumber: item.id.invoiceNumber });
  if (injected && levelOf(job, injected.code) !== 'accepted') {
    if (injected.code === DUPLICATE) return duplicate(registry.find(item.id));
    registry.chainsToLastReceived(job.record ?? chainFactsOf(item));
    return reject({ code: injected.code });
  }
  const { record } = job;
  if (item.formError || !record) {
    registry.chainsToLastReceived(chainFactsOf(item));
    return reject(item.formError ?? { code: 1100 });
  }

  // Flags and the issuer are judged before what is held: the invoice key only means something for the header's taxpayer.
  const earlyCode = flagError(record) ?? (record.id.issuerNif !== job.header.obligado.nif ? ISSUER_NOT_OBLIGADO : undefined);
  if (earlyCode !== undefined) {
    registry.chainsToLastReceived(record);
    return reject({ code: earlyCode });
  }

  const held = registry.find(record.id);
  const refused = matrixError(record, held);
  // A resend of something held is not a new link, so the chain tracking is left alone.
  if (refused?.duplicate) return duplicate(refused.duplicate);
  if (!registry.chainsToLastReceived(record)) counters.chainMismatches += 1;
  if (refused) return reject({ code: refused.code });
  if (held?.viaForm && updatesHeld(record, held)) return reject({ code: ENTERED_THROUGH_WEB_FORM });
  if (held && updatesHeld(record, held) && !mayUpdate(ctx, held, job.presentation.presenterNif, job.header.obligado.nif)) {
    return reject({ code: PRESENTER_MAY_NOT_UPDATE });
  }
  const blocking = recordContentError(item.kind, item.raw, rules);
  if (blocking) return reject(blocking);

  return acceptRecord(ctx, env, job, record, line, injected?.code);
}
