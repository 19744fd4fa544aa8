import type { ChainRecord } from '@vf/core';
import type { InvoiceOutcome, SubmissionResult } from '@vf/db';

/** One record as it went in a message. */
export interface SentRecord {
  invoiceId: string;
  record: ChainRecord;
  /** send_attempts including the message that produced the answer. */
  attempt: number;
}

/**
 * What the authority's answer means for one record, the one vocabulary from an answer to a status change:
 * - `settled`: a status to write now (final, or an error waiting for the user);
 * - `ask`: only the Consulta service can tell whether the authority holds it: a code the catalogue sends there (3000,
 *   whose RegistroDuplicado carries no huella; 3001; a code in no table, with the authority's text in `message`), a
 *   state this service does not know (kept raw in `unknownState`), or a message that may have been processed though
 *   its answer never came (`unanswered`: why);
 * - `again`: nothing usable for it came back: it goes again, unchanged (an `unknownState` the Consulta service could
 *   not settle either makes it `error` meanwhile).
 */
export type RecordVerdict =
  | { kind: 'settled'; outcome: InvoiceOutcome }
  | { kind: 'ask'; sent: SentRecord; code?: number; message?: string; unknownState?: string; unanswered?: string }
  | { kind: 'again'; sent: SentRecord; reason: string; code?: number; unknownState?: string };

/**
 * What one exchange means: how it went, for the submission row and the chain's timing (`answered`: the authority
 * processed the message and its TiempoEsperaEnvio applies; `refused`: a Client fault refused the whole message;
 * `unanswered`: nothing usable came back), and each record's verdict.
 */
export interface Verdict {
  exchange: 'answered' | 'refused' | 'unanswered';
  submission: SubmissionResult;
  /** TiempoEsperaEnvio of an answer; 0 otherwise. */
  waitSeconds: number;
  records: RecordVerdict[];
  /** The authority suspended access for the certificate the message went with (4141): every send under it stops. */
  stop?: { code: number; message: string };
}
