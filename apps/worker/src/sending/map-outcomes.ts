import type { ChainRecord } from '@vf/core';
import type { InvoiceOutcome } from '@vf/db/src/stores/submission-record-store';
import type { ResponseLine, SoapFault } from '@vf/xml';

/** One record as it went in a message. */
export interface SentRecord {
  invoiceId: string;
  record: ChainRecord;
  /** send_attempts including the message that produced the answer. */
  attempt: number;
}

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

export type LineVerdict =
  | { kind: 'final'; outcome: InvoiceOutcome }
  /**
   * Only the Consulta service can tell: a 3000 (is the record the authority holds ours? RegistroDuplicado carries no
   * huella), or a state this service does not know (`unknownState`, the raw value).
   */
  | { kind: 'ask_authority'; code?: number; unknownState?: string }
  /** No line came back for this record: it goes again. */
  | { kind: 'unanswered' };

/** What one answer line means for its invoice. Never throws, whatever the authority wrote. */
export function judgeLine(sent: SentRecord, line: ResponseLine | undefined, csv: string | undefined): LineVerdict {
  if (!line) return { kind: 'unanswered' };
  const base = { invoiceId: sent.invoiceId, csv: csv ?? null };
  // Read as a plain string: a value the schema did not list must land in `default`, not in a wrong branch.
  const state: string = line.state;
  switch (state) {
    case 'Correcto':
      return { kind: 'final', outcome: { ...base, status: 'accepted', note: csv ? `accepted by the authority (CSV ${csv})` : 'accepted by the authority' } };
    case 'AceptadoConErrores':
      return {
        kind: 'final',
        outcome: {
          ...base,
          status: 'accepted_with_warnings',
          code: line.errorCode ?? null,
          message: line.errorDescription ?? null,
          note: `accepted with errors: ${withCode(line.errorCode, line.errorDescription)}`,
        },
      };
    case 'Incorrecto':
      if (line.errorCode === DUPLICATE_CODE) return { kind: 'ask_authority', code: DUPLICATE_CODE };
      return {
        kind: 'final',
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
      return { kind: 'ask_authority', ...(line.errorCode !== undefined && { code: line.errorCode }), unknownState: line.rawState ?? state };
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

/** A record that got no final answer, and why. `unknownState`: the authority's answer could not be understood. */
export interface Unsettled {
  sent: SentRecord;
  reason: string;
  code?: number;
  unknownState?: string;
}

export interface RetryPlan {
  retryAt: Date;
  /** Since when this taxpayer's sends have been failing (now, when this is the first failure). */
  failingSince: Date;
  now: Date;
  errorAfterSeconds: number;
}

/**
 * No usable answer: each record goes again, unchanged, at `retryAt`; there is no attempt limit. It shows `queued`
 * until the sends have been failing for `errorAfterSeconds`, then `error` (cause `outage`), still with its next
 * attempt. An answer the service could not understand is `error` (cause `unknown_answer`) at once.
 */
export function judgeRetry(unsettled: Unsettled[], plan: RetryPlan): InvoiceOutcome[] {
  const overdue = plan.now.getTime() - plan.failingSince.getTime() >= plan.errorAfterSeconds * 1000;
  const next = `next attempt at ${plan.retryAt.toISOString()}`;
  return unsettled.map(({ sent, reason, code, unknownState }) => {
    const base = { invoiceId: sent.invoiceId, nextAttemptAt: plan.retryAt };
    if (unknownState !== undefined) {
      const why = `${reason}; ${next}`;
      return { ...base, status: 'error', cause: 'unknown_answer', code: code ?? null, message: `EstadoRegistro ${unknownState}`, lastError: why, note: `error: ${why}` };
    }
    if (overdue) {
      const why = `${reason}; failing since ${plan.failingSince.toISOString()}; ${next}`;
      return { ...base, status: 'error', cause: 'outage', lastError: why, note: `error: ${why}` };
    }
    const why = `${reason}; ${next}`;
    return { ...base, status: 'queued', lastError: why, note: why };
  });
}
