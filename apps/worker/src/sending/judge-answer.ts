import { codeBehaviour, type ChainRecord, type ServiceCause } from '@vf/core';
import { readRegFactuAnswer, type SoapExchange } from '@vf/authority-client';
import type { ResponseLine, SoapFault } from '@vf/xml';
import type { InvoiceOutcome, SubmissionOutcome, SubmissionResult } from '@vf/db';

/** One record as it went in a message. */
export interface SentRecord {
  invoiceId: string;
  record: ChainRecord;
  /** send_attempts including the message that produced the answer. */
  attempt: number;
}

/**
 * What the send produced for one record:
 * - `settled`: a status to write now (final, or an error waiting for the user), built by `recordOutcome`;
 * - `ask`: only the Consulta service can tell whether the authority holds it: a code the catalogue sends there (3000,
 *   whose RegistroDuplicado carries no huella; 3001; a code in no table, with the authority's text in `message`), a
 *   state this service does not know (kept raw in `unknownState`), or a message that may have been processed though
 *   its answer never came (`unanswered`: why);
 * - `again`: nothing usable for it came back: it goes again, unchanged (`recordOutcome.retried`; an `unknownState`
 *   the Consulta service could not settle either makes it `error` meanwhile).
 */
export type RecordVerdict =
  | { kind: 'settled'; outcome: InvoiceOutcome }
  | { kind: 'ask'; sent: SentRecord; code?: number; message?: string; unknownState?: string; unanswered?: string }
  | { kind: 'again'; sent: SentRecord; reason: string; code?: number; unknownState?: string };

/** The authority suspended access for the certificate the message went with (4141): every send under it stops. */
export interface SenderStop {
  code: number;
  message: string;
}

/**
 * How the exchange went:
 * - `answered`: the authority processed the message; its TiempoEsperaEnvio applies to the chain;
 * - `refused`: a Client fault (or an HTTP 500 without a body) refused the whole message; nothing was registered;
 * - `unanswered`: nothing usable came back, so every record is asked about or goes again: `no_answer` (no answer, an
 *   answer that is not SOAP, or a send that failed in this process) or `server_fault` (a fault the catalogue retries:
 *   any Server fault, or a retry code from either side).
 */
export type Exchange =
  | { exchange: 'answered'; stop?: undefined }
  | { exchange: 'refused'; stop?: SenderStop }
  | { exchange: 'unanswered'; failure: 'no_answer' | 'server_fault'; stop?: undefined };

/**
 * What one send produced, the send path's one vocabulary: how the exchange went and each record's verdict. The rest
 * follows from it: the submission row's outcome and the metrics' label here (`verdictOf`, `sendOutcome`), the
 * records' statuses in `recordOutcome`, the chain's timing and whether the sender goes on in the send job.
 */
export type Verdict = Exchange & {
  /** What is kept of the exchange on the submission row (its audit trail). */
  submission: SubmissionResult;
  /** TiempoEsperaEnvio of an answer; 0 otherwise. */
  waitSeconds: number;
  records: RecordVerdict[];
};

/** What came back on the wire, as the submission row keeps it: everything but the outcome, which the verdict decides. */
export type ExchangeDetails = Omit<SubmissionResult, 'outcome'>;

/** The submission row's `outcome` (the audit trail's, shown by the API): `answered`, `fault` or `transport_error`. */
function submissionOutcome(e: Exchange): SubmissionOutcome {
  if (e.exchange === 'answered') return 'answered';
  return e.exchange === 'refused' || e.failure === 'server_fault' ? 'fault' : 'transport_error';
}

/** A verdict with its submission row, whose outcome follows from how the exchange went. */
export function verdictOf(e: Exchange & { details: ExchangeDetails; waitSeconds?: number; records: RecordVerdict[] }): Verdict {
  const { details, waitSeconds, ...rest } = e;
  return { ...rest, submission: { ...details, outcome: submissionOutcome(e) }, waitSeconds: waitSeconds ?? 0 };
}

/** The sends metric's `outcome` label. */
export type SendOutcome = 'answered' | 'message_rejected' | 'server_fault' | 'no_answer';

export function sendOutcome(e: Exchange): SendOutcome {
  if (e.exchange === 'answered') return 'answered';
  return e.exchange === 'refused' ? 'message_rejected' : e.failure;
}

/** The authority's code and description a record is stored with, when there is one. */
interface Coded {
  code?: number | null;
  message?: string | null;
}

/** A retried record: why it goes again and when, and what the authority last said of it. */
export interface Retried {
  invoiceId: string;
  reason: string;
  code?: number;
  /** An EstadoRegistro this service does not know, as the authority wrote it. */
  unknownState?: string;
  retryAt: Date;
  /** Since when the chain's sends have been failing, and whether that is longer than the error threshold. */
  failingSince: Date;
  overdue: boolean;
}

/**
 * Where a record stands after what a send produced: the one place the send path chooses its status (the statuses
 * themselves, and who may move a record between them, are the statuses module's). Each function is one meaning:
 * what it writes (status, code, next attempt, the history line) follows from it here, never in a judge.
 */
export const recordOutcome = {
  /** Registered by the authority without a warning (`how`: what showed it, for the history). */
  accepted(invoiceId: string, csv: string | null, how: string): InvoiceOutcome {
    return { invoiceId, csv, status: 'accepted', note: how };
  },

  /** Registered by the authority with the code of a warning (AceptadoConErrores, 2007 included): never resent. */
  acceptedWithWarnings(invoiceId: string, csv: string | null, warning: Coded, how: string): InvoiceOutcome {
    return { invoiceId, csv, status: 'accepted_with_warnings', code: warning.code ?? null, message: warning.message ?? null, note: how };
  },

  /** Refused by the authority for itself (EstadoRegistro Incorrecto, or another record holds its number): final. */
  rejected(invoiceId: string, csv: string | null, refusal: Coded & { why: string; cause?: ServiceCause }): InvoiceOutcome {
    const { code, message, why, cause } = refusal;
    return {
      invoiceId,
      csv,
      status: 'rejected',
      code: code ?? null,
      message: message ?? null,
      cause: cause ?? null,
      note: `rejected: ${why}`,
    };
  },

  /**
   * Nothing the workers can do on their own: `error` with nothing planned, waiting for the user (or an operator).
   * `note`: the history line, when it says more or less than "error: why".
   */
  needsAttention(
    invoiceId: string,
    attention: Coded & { why: string; cause?: ServiceCause; csv?: string | null; note?: string },
  ): InvoiceOutcome {
    const { why, cause, note } = attention;
    return {
      invoiceId,
      csv: attention.csv ?? null,
      status: 'error',
      code: attention.code ?? null,
      message: attention.message ?? null,
      cause: cause ?? null,
      lastError: why,
      nextAttemptAt: null,
      note: note ?? `error: ${why}`,
    };
  },

  /**
   * Goes again, unchanged, at `retryAt`; there is no attempt limit. It shows `queued` until the sends have been failing
   * for the error threshold, then `error` (cause `outage`), still with its next attempt. An answer the service could
   * not understand is `error` (cause `unknown_answer`) at once.
   */
  retried(r: Retried): InvoiceOutcome {
    const base = { invoiceId: r.invoiceId, nextAttemptAt: r.retryAt };
    const next = `next attempt at ${r.retryAt.toISOString()}`;
    if (r.unknownState !== undefined) {
      const why = `${r.reason}; ${next}`;
      return {
        ...base,
        status: 'error',
        cause: 'unknown_answer',
        code: r.code ?? null,
        message: `EstadoRegistro ${r.unknownState}`,
        lastError: why,
        note: `error: ${why}`,
      };
    }
    if (r.overdue) {
      const why = `${r.reason}; failing since ${r.failingSince.toISOString()}; ${next}`;
      return { ...base, status: 'error', cause: 'outage', lastError: why, note: `error: ${why}` };
    }
    const why = `${r.reason}; ${next}`;
    return { ...base, status: 'queued', lastError: why, note: why };
  },
};

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
