import type { AnomalyType } from '@vf/core';

/** POST /taxpayers/{id}/checks: the records' chain or one system's chain of events, whole or a range. */
export interface IntegrityCheckBody {
  subject: 'records' | 'events';
  system_id?: string;
  from_seq?: number;
  to_seq?: number;
}

/** One link of a chain as a check saw it: each property true when it holds. */
export interface CheckedLink {
  seq: number;
  id: string;
  /** An event's TipoEvento (absent for a record). */
  type?: string;
  generatedAt: string;
  hash: string;
  /** It still hashes to its huella (a record rebuilt from its row; an event's fields). */
  hashOk: boolean;
  /** Its signature is there (where one must be), is the one made for it, and verifies. */
  signatureOk: boolean;
  /** Its "previous huella" is the huella of the one before it. */
  linkOk: boolean;
  /** Its time is not before the one before it, nor more than a minute ahead of the clock. */
  dateOk: boolean;
}

/** An anomaly a check found, with its TipoAnomalia (list L1E). */
export interface FoundAnomaly {
  seq: number;
  id: string;
  kind: 'hash' | 'signature' | 'link' | 'date';
  type: AnomalyType;
  detail: string;
}

/** What an on-demand check found, link by link. */
export interface IntegrityCheckReport {
  fromSeq: number;
  toSeq: number;
  /** The whole chain was checked and nothing was found: its alarm (if any) is cleared. */
  restored: boolean;
  links: CheckedLink[];
  anomalies: FoundAnomaly[];
}
