import type { InvoiceOutcome, SubmissionResult } from '@vf/db/src/stores/submission-record-store';
import { parseRegFactuReply, type ParsedReply } from '@vf/xml';
import type { SoapExchange, SoapTransport } from '../transport/soap-transport';
import { askAuthority } from './ask-authority';
import { judgeClientFault, judgeLine, matchLines, type SentRecord, type Unsettled } from './map-outcomes';
import type { PreparedMessage } from './prepare-message';

/**
 * What an exchange means. `answered`: the authority processed the message (its TiempoEsperaEnvio applies);
 * `rejected_message`: a Client fault refused the whole message; `retry`: nothing usable came back, resend unchanged.
 */
export interface Interpretation {
  kind: 'answered' | 'rejected_message' | 'retry';
  submission: SubmissionResult;
  /** Final statuses settled by this exchange. */
  outcomes: InvoiceOutcome[];
  /** Records that must go again. */
  unsettled: Unsettled[];
  waitSeconds: number;
}

function retryAll(sent: SentRecord[], submission: SubmissionResult): Interpretation {
  return { kind: 'retry', submission, outcomes: [], unsettled: sent.map((s) => ({ sent: s, reason: submission.errorMessage! })), waitSeconds: 0 };
}

/** The send itself failed in our process (not on the wire): resend later, like any failed send. */
export function interpretFailure(sent: SentRecord[], reason: string): Interpretation {
  return retryAll(sent, { outcome: 'transport_error', errorMessage: reason });
}

export async function interpretExchange(exchange: SoapExchange, sent: SentRecord[], message: PreparedMessage, transport: SoapTransport): Promise<Interpretation> {
  if (exchange.kind === 'no_answer') {
    return retryAll(sent, { outcome: 'transport_error', errorMessage: `transport error: ${exchange.error}` });
  }
  const http = { httpStatus: exchange.status, responseXml: exchange.body };
  let reply: ParsedReply;
  try {
    reply = parseRegFactuReply(exchange.body);
  } catch {
    return retryAll(sent, { ...http, outcome: 'transport_error', errorMessage: `transport error: HTTP ${exchange.status} without a readable SOAP answer` });
  }

  if (reply.kind === 'fault') {
    const fault = { ...http, outcome: 'fault' as const, faultCode: reply.code !== undefined ? String(reply.code) : reply.faultCode };
    if (reply.side === 'server') return retryAll(sent, { ...fault, errorMessage: `server fault (${reply.faultCode}): ${reply.message}` });
    return {
      kind: 'rejected_message',
      submission: { ...fault, errorMessage: `message rejected (${reply.faultCode}): ${reply.message}` },
      outcomes: judgeClientFault(sent, reply),
      unsettled: [],
      waitSeconds: 0,
    };
  }

  const lines = matchLines(sent, reply.lines);
  const outcomes: InvoiceOutcome[] = [];
  const unsettled: Unsettled[] = [];
  const toAsk: { sent: SentRecord; code?: number; unknownState?: string }[] = [];
  for (const s of sent) {
    const verdict = judgeLine(s, lines.get(s.invoiceId), reply.csv);
    if (verdict.kind === 'final') outcomes.push(verdict.outcome);
    else if (verdict.kind === 'unanswered') unsettled.push({ sent: s, reason: "the authority's answer had no line for this record" });
    else toAsk.push({ sent: s, code: verdict.code, unknownState: verdict.unknownState });
  }
  if (toAsk.length > 0) {
    const known = await askAuthority(
      transport,
      message,
      message.obligado,
      toAsk.map((a) => a.sent),
    );
    for (const { sent: s, code, unknownState } of toAsk) {
      const outcome = known.get(s.invoiceId);
      if (outcome) outcomes.push({ ...outcome, csv: reply.csv ?? null });
      else if (unknownState !== undefined) unsettled.push({ sent: s, code, unknownState, reason: `the authority answered the unknown EstadoRegistro "${unknownState}" and the Consulta service did not settle it` });
      else unsettled.push({ sent: s, reason: 'duplicate (3000) and the Consulta service did not show the record the authority holds' });
    }
  }
  return {
    kind: 'answered',
    submission: { ...http, outcome: 'answered', csv: reply.csv ?? null, waitSeconds: reply.waitSeconds },
    outcomes,
    unsettled,
    waitSeconds: reply.waitSeconds,
  };
}
