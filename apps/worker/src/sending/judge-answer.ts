import { codeBehaviour } from '@vf/core';
import { readRegFactuAnswer, type SoapExchange } from '@vf/authority-client';
import type { ResponseLine, SoapFault } from '@vf/xml';
import type { InvoiceOutcome } from '@vf/db';
import { recordOutcome } from './record-outcome';
import { verdictOf, type ExchangeDetails, type RecordVerdict, type SentRecord, type Verdict } from './verdict';

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

/**
 * What one answer line means for its record, as the code catalogue prescribes (@vf/core code-catalogue). Never
 * throws, whatever the authority wrote.
 */
export function judgeLine(sent: SentRecord, line: ResponseLine | undefined, csv: string | undefined): RecordVerdict {
  if (!line) return { kind: 'again', sent, reason: "the authority's answer had no line for this record" };
  const settled = (outcome: InvoiceOutcome): RecordVerdict => ({ kind: 'settled', outcome });
  const { invoiceId } = sent;
  const answerCsv = csv ?? null;
  const code = line.errorCode;
  const coded = { code, message: line.errorDescription ?? null };
  const said = withCode(code, line.errorDescription);
  // Read as a plain string: a value the schema did not list must land in `default`, not in a wrong branch.
  const state: string = line.state;
  switch (state) {
    case 'Correcto':
      return settled(
        recordOutcome.accepted(invoiceId, answerCsv, csv ? `accepted by the authority (CSV ${csv})` : 'accepted by the authority'),
      );
    case 'AceptadoConErrores':
      // Stored, whatever the code (2007 included): registered, never sent again, and the chain goes on behind it.
      return settled(recordOutcome.acceptedWithWarnings(invoiceId, answerCsv, coded, `accepted with errors: ${said}`));
    case 'Incorrecto': {
      // An Incorrecto without a code says nothing of what the authority holds: only the Consulta service can.
      const action = code === undefined ? 'consulta' : codeBehaviour(code).action;
      if (action === 'consulta')
        return { kind: 'ask', sent, ...(code !== undefined && { code }), ...(coded.message && { message: coded.message }) };
      if (action === 'retry') return { kind: 'again', sent, code, reason: `the authority asked for a retry: ${said}` };
      if (action === 'error' || action === 'stop')
        return settled(recordOutcome.needsAttention(invoiceId, { ...coded, csv: answerCsv, why: `refused by the authority: ${said}` }));
      return settled(recordOutcome.rejected(invoiceId, answerCsv, { ...coded, why: said }));
    }
    default:
      // The parser reports a value outside the schema's list as 'Unknown' and keeps what the authority wrote.
      return { kind: 'ask', sent, ...(code !== undefined && { code }), unknownState: line.rawState ?? state };
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
  // The authority's text is on the record and on the submission: the history line says what happened, once.
  const note = `error: the authority refused the whole message (${fault.faultCode}${fault.code !== undefined ? `, code ${fault.code}` : ''}); nothing was registered`;
  return sent.map((s) => recordOutcome.needsAttention(s.invoiceId, { code: fault.code, message: text, why, note }));
}

function unanswered(
  sent: SentRecord[],
  failure: 'no_answer' | 'server_fault',
  details: ExchangeDetails & { errorMessage: string },
  mayHaveBeenProcessed = false,
): Verdict {
  const reason = details.errorMessage;
  return verdictOf({
    exchange: 'unanswered',
    failure,
    details,
    // A message that may have been processed is settled through the Consulta service before anything goes again:
    // a record the authority already holds is never sent twice.
    records: sent.map((s) => (mayHaveBeenProcessed ? { kind: 'ask', sent: s, unanswered: reason } : { kind: 'again', sent: s, reason })),
  });
}

/** The send itself failed in this process (not on the wire): resent later, like any failed send. */
export function failedSend(sent: SentRecord[], reason: string): Verdict {
  return unanswered(sent, 'no_answer', { errorMessage: reason });
}

/**
 * HTTP 500 with no body at all: what the authority answers when the certificate's holder is neither the taxpayer nor
 * empowered to act for it (as integrators reported). Nothing was registered; the user has to change the certificate.
 */
function certificateRefused(sent: SentRecord[], http: { httpStatus: number; responseXml: string }): Verdict {
  const why = 'the authority answered HTTP 500 with no body: the certificate holder may not act for this taxpayer';
  return verdictOf({
    exchange: 'refused',
    details: { ...http, errorMessage: `message rejected: ${why}` },
    records: sent.map((s) => ({
      kind: 'settled',
      outcome: recordOutcome.needsAttention(s.invoiceId, {
        cause: 'certificate_refused',
        why,
        note: `error: ${why}; nothing was registered`,
      }),
    })),
  });
}

/**
 * What an exchange with the authority means for the message and each of its records, as the code catalogue
 * prescribes. Pure.
 */
export function judgeAnswer(exchange: SoapExchange, sent: SentRecord[]): Verdict {
  const answer = readRegFactuAnswer(exchange);
  // The request went out and nothing came back: the authority may have processed it.
  if (answer.kind === 'no_answer') return unanswered(sent, 'no_answer', { errorMessage: `transport error: ${answer.error}` }, true);
  const http = { httpStatus: answer.httpStatus, responseXml: answer.responseXml };
  if (answer.kind === 'certificate_refused') return certificateRefused(sent, http);
  // An HTML page or any other non-SOAP answer comes from in front of the service: nothing was processed.
  if (answer.kind === 'unreadable')
    return unanswered(sent, 'no_answer', {
      ...http,
      errorMessage: `transport error: HTTP ${answer.httpStatus} without a readable SOAP answer`,
    });
  if (answer.kind === 'fault') {
    const reply = answer.fault;
    const fault = { ...http, faultCode: reply.code !== undefined ? String(reply.code) : reply.faultCode };
    const behaviour = reply.code !== undefined ? codeBehaviour(reply.code) : undefined;
    const errorMessage = `${reply.side === 'server' ? 'server fault' : 'message rejected'} (${reply.faultCode}): ${reply.message}`;
    // What the catalogue retries is retried whatever side the fault names (the retry codes come as either), and so
    // is any other Server fault. Whether it stored anything unknown (Codigo[102], no code): asked before going again.
    if (behaviour?.action === 'retry' || (reply.side === 'server' && behaviour?.action !== 'stop'))
      return unanswered(sent, 'server_fault', { ...fault, errorMessage }, behaviour?.stored === 'unknown' || behaviour === undefined);
    return verdictOf({
      exchange: 'refused',
      details: { ...fault, errorMessage },
      records: judgeClientFault(sent, reply).map((outcome) => ({ kind: 'settled', outcome })),
      ...(behaviour?.stopsSender && { stop: { code: behaviour.code, message: reply.message } }),
    });
  }
  const { reply } = answer;
  const lines = matchLines(sent, reply.lines);
  return verdictOf({
    exchange: 'answered',
    details: { ...http, csv: reply.csv ?? null, waitSeconds: reply.waitSeconds },
    waitSeconds: reply.waitSeconds,
    records: sent.map((s) => judgeLine(s, lines.get(s.invoiceId), reply.csv)),
  });
}
