import { parseRegFactuReply, type ParsedReply, type ResponseLine, type SoapFault } from '@vf/xml';
import type { InvoiceOutcome, SubmissionResult } from '@vf/db';
import type { SoapExchange } from '../transport/soap-transport';
import type { RecordVerdict, SentRecord, Verdict } from './verdict';

export const DUPLICATE_CODE = 3000;

function idKey(id: { issuerNif: string; invoiceNumber: string; invoiceDate: string }): string {
  return `${id.issuerNif}|${id.invoiceNumber}|${id.invoiceDate}`;
}

export function withCode(code: number | undefined, text: string | undefined): string {
  return [code, text].filter((p) => p !== undefined && p !== '').join(' ');
}

/**
 * Finds each record's answer line: by RefExterna (our record id) when echoed, else by IDFactura. An alta's line says
 * Alta and an anulación's Anulacion, so two records of one invoice never take each other's answer.
 */
export function matchLines(records: SentRecord[], lines: ResponseLine[]): Map<string, ResponseLine> {
  const byRef = new Map<string, ResponseLine>();
  const byId = new Map<string, ResponseLine>();
  for (const line of lines) {
    if (line.externalRef) byRef.set(`${line.operation}|${line.externalRef}`, line);
    byId.set(`${line.operation}|${idKey(line.id)}`, line);
  }
  const matched = new Map<string, ResponseLine>();
  for (const r of records) {
    const operation = r.record.kind === 'cancellation' ? 'Anulacion' : 'Alta';
    const line = byRef.get(`${operation}|${r.invoiceId}`) ?? byId.get(`${operation}|${idKey(r.record.id)}`);
    if (line) matched.set(r.invoiceId, line);
  }
  return matched;
}

/** What one answer line means for its record. Never throws, whatever the authority wrote. */
export function judgeLine(sent: SentRecord, line: ResponseLine | undefined, csv: string | undefined): RecordVerdict {
  if (!line) return { kind: 'again', sent, reason: "the authority's answer had no line for this record" };
  const base = { invoiceId: sent.invoiceId, csv: csv ?? null };
  // Read as a plain string: a value the schema did not list must land in `default`, not in a wrong branch.
  const state: string = line.state;
  switch (state) {
    case 'Correcto':
      return {
        kind: 'settled',
        outcome: { ...base, status: 'accepted', note: csv ? `accepted by the authority (CSV ${csv})` : 'accepted by the authority' },
      };
    case 'AceptadoConErrores':
      return {
        kind: 'settled',
        outcome: {
          ...base,
          status: 'accepted_with_warnings',
          code: line.errorCode ?? null,
          message: line.errorDescription ?? null,
          note: `accepted with errors: ${withCode(line.errorCode, line.errorDescription)}`,
        },
      };
    case 'Incorrecto':
      if (line.errorCode === DUPLICATE_CODE) return { kind: 'ask', sent, code: DUPLICATE_CODE };
      return {
        kind: 'settled',
        outcome: {
          ...base,
          status: 'rejected',
          code: line.errorCode ?? null,
          message: line.errorDescription ?? null,
          note: `rejected: ${withCode(line.errorCode, line.errorDescription)}`,
        },
      };
    default:
      // The parser reports a value outside the schema's list as 'Unknown' and keeps what the authority wrote.
      return { kind: 'ask', sent, ...(line.errorCode !== undefined && { code: line.errorCode }), unknownState: line.rawState ?? state };
  }
}

/**
 * A Client fault refuses the whole message and the authority registered nothing: whatever the code (4112 certificate
 * holder, 4104 NIF not in the census, 4102 schema…), no record was refused for itself, so none is `rejected`. Each
 * is `error` with the fault's code, waiting for the user (a new certificate, corrected taxpayer data, a resend).
 */
export function judgeClientFault(sent: SentRecord[], fault: SoapFault): InvoiceOutcome[] {
  const text = fault.message;
  const why = `the authority refused the whole message (${fault.faultCode}): ${withCode(fault.code, text)}`;
  return sent.map((s) => ({
    invoiceId: s.invoiceId,
    status: 'error',
    code: fault.code ?? null,
    message: text,
    lastError: why,
    nextAttemptAt: null,
    // The authority's text is on the record and on the submission: the history line says what happened, once.
    note: `error: the authority refused the whole message (${fault.faultCode}${fault.code !== undefined ? `, code ${fault.code}` : ''}); nothing was registered`,
  }));
}

function unanswered(sent: SentRecord[], submission: SubmissionResult): Verdict {
  return {
    exchange: 'unanswered',
    submission,
    waitSeconds: 0,
    records: sent.map((s) => ({ kind: 'again', sent: s, reason: submission.errorMessage! })),
  };
}

/** The send itself failed in this process (not on the wire): resent later, like any failed send. */
export function failedSend(sent: SentRecord[], reason: string): Verdict {
  return unanswered(sent, { outcome: 'transport_error', errorMessage: reason });
}

/** What an exchange with the authority means for the message and each of its records. Pure. */
export function judgeAnswer(exchange: SoapExchange, sent: SentRecord[]): Verdict {
  if (exchange.kind === 'no_answer')
    return unanswered(sent, { outcome: 'transport_error', errorMessage: `transport error: ${exchange.error}` });
  const http = { httpStatus: exchange.status, responseXml: exchange.body };
  let reply: ParsedReply;
  try {
    reply = parseRegFactuReply(exchange.body);
  } catch {
    return unanswered(sent, {
      ...http,
      outcome: 'transport_error',
      errorMessage: `transport error: HTTP ${exchange.status} without a readable SOAP answer`,
    });
  }
  if (reply.kind === 'fault') {
    const fault = { ...http, outcome: 'fault' as const, faultCode: reply.code !== undefined ? String(reply.code) : reply.faultCode };
    if (reply.side === 'server') return unanswered(sent, { ...fault, errorMessage: `server fault (${reply.faultCode}): ${reply.message}` });
    return {
      exchange: 'refused',
      submission: { ...fault, errorMessage: `message rejected (${reply.faultCode}): ${reply.message}` },
      waitSeconds: 0,
      records: judgeClientFault(sent, reply).map((outcome) => ({ kind: 'settled', outcome })),
    };
  }
  const lines = matchLines(sent, reply.lines);
  return {
    exchange: 'answered',
    submission: { ...http, outcome: 'answered', csv: reply.csv ?? null, waitSeconds: reply.waitSeconds },
    waitSeconds: reply.waitSeconds,
    records: sent.map((s) => judgeLine(s, lines.get(s.invoiceId), reply.csv)),
  };
}
