import type { ChainRecord } from '@vf/core';
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
