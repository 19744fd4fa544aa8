import type { RegistrationRecord } from '@vf/core';
import type { InvoiceOutcome } from '@vf/db/src/stores/submission-record-store';
import type { ResponseLine, SoapFault } from '@vf/xml';

/** One record as it went in a message. */
export interface SentRecord {
  invoiceId: string;
  record: RegistrationRecord;
  /** send_attempts including the message that produced the answer. */
  attempt: number;
}

export const DUPLICATE_CODE = 3000;
export const CERTIFICATE_HOLDER_CODE = 4112;

function idKey(id: { issuerNif: string; invoiceNumber: string; invoiceDate: string }): string {
  return `${id.issuerNif}|${id.invoiceNumber}|${id.invoiceDate}`;
}

function withCode(code: number | undefined, text: string | undefined): string {
  return [code, text].filter((p) => p !== undefined && p !== '').join(' ');
}

/** Finds each record's answer line: by RefExterna (our invoice id) when echoed, else by IDFactura. */
export function matchLines(records: SentRecord[], lines: ResponseLine[]): Map<string, ResponseLine> {
  const byRef = new Map<string, ResponseLine>();
  const byId = new Map<string, ResponseLine>();
  for (const line of lines) {
    if (line.operation !== 'Alta') continue;
    if (line.externalRef) byRef.set(line.externalRef, line);
    byId.set(idKey(line.id), line);
  }
  const matched = new Map<string, ResponseLine>();
  for (const r of records) {
    const line = byRef.get(r.invoiceId) ?? byId.get(idKey(r.record.id));
    if (line) matched.set(r.invoiceId, line);
  }
  return matched;
}

export type LineVerdict =
  | { kind: 'final'; outcome: InvoiceOutcome }
  /** A 3000 on a resend without the stored state: ask the Consulta service what the authority holds. */
  | { kind: 'ask_authority' }
  /** No line came back for this record: it goes again. */
  | { kind: 'unanswered' };

/**
 * What one answer line means for its invoice. A 3000 on a record that had already gone in an earlier message is
 * our own earlier registration (the reply was lost): its stored state decides. A 3000 on a first send is a real
 * duplicate and is rejected.
 */
export function judgeLine(sent: SentRecord, line: ResponseLine | undefined, csv: string | undefined): LineVerdict {
  if (!line) return { kind: 'unanswered' };
  const base = { invoiceId: sent.invoiceId, csv: csv ?? null };
  switch (line.state) {
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
      if (line.errorCode === DUPLICATE_CODE && sent.attempt > 1) return judgeOwnDuplicate(sent, line, base);
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
  }
}

function judgeOwnDuplicate(sent: SentRecord, line: ResponseLine, base: { invoiceId: string; csv: string | null }): LineVerdict {
  const dup = line.duplicate;
  if (!dup) return { kind: 'ask_authority' };
  const earlier = `already registered by an earlier attempt (request ${dup.requestId})`;
  switch (dup.state) {
    case 'Correcta':
      return { kind: 'final', outcome: { ...base, status: 'accepted', note: `${earlier}: Correcta` } };
    case 'AceptadaConErrores':
      return {
        kind: 'final',
        outcome: {
          ...base,
          status: 'accepted_with_warnings',
          code: dup.errorCode ?? null,
          message: dup.errorDescription ?? null,
          note: `${earlier}: AceptadaConErrores ${withCode(dup.errorCode, dup.errorDescription)}`,
        },
      };
    case 'Anulada':
      return {
        kind: 'final',
        outcome: {
          ...base,
          status: 'rejected',
          code: DUPLICATE_CODE,
          message: line.errorDescription ?? null,
          note: `${earlier}, but the authority holds it as cancelled (Anulada)`,
        },
      };
  }
}

/**
 * A Client fault rejects the whole message: every record is `rejected` with the fault's code, except 4112 (the
 * certificate holder may not present for this taxpayer), an authorisation problem surfaced as `error`.
 */
export function judgeClientFault(sent: SentRecord[], fault: SoapFault): InvoiceOutcome[] {
  const text = fault.message;
  if (fault.code === CERTIFICATE_HOLDER_CODE) {
    return sent.map((s) => ({
      invoiceId: s.invoiceId,
      status: 'error',
      code: fault.code,
      message: text,
      lastError: `certificate not authorised by the authority: ${withCode(fault.code, text)}`,
      note: `error: the authority refused the certificate holder: ${withCode(fault.code, text)}`,
    }));
  }
  return sent.map((s) => ({
    invoiceId: s.invoiceId,
    status: 'rejected',
    code: fault.code ?? null,
    message: text,
    note: `whole message rejected (${fault.faultCode}): ${withCode(fault.code, text)}`,
  }));
}

/** A record that got no final answer, and why. */
export interface Unsettled {
  sent: SentRecord;
  reason: string;
}

/**
 * No usable answer: each record goes back to `queued` for an unchanged resend at `retryAt`, or ends in `error`
 * once it has used up its attempts.
 */
export function judgeRetry(unsettled: Unsettled[], maxAttempts: number, retryAt: Date): InvoiceOutcome[] {
  return unsettled.map(({ sent, reason }) => {
    if (sent.attempt >= maxAttempts) {
      const why = `${reason}; gave up after ${sent.attempt} attempts`;
      return { invoiceId: sent.invoiceId, status: 'error', lastError: why, note: `error: ${why}` };
    }
    const why = `${reason}; retry ${sent.attempt + 1} of ${maxAttempts} at ${retryAt.toISOString()}`;
    return { invoiceId: sent.invoiceId, status: 'queued', lastError: why, note: why };
  });
}
