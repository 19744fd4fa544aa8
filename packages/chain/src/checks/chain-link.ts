import type { AnomalyType } from '@vf/core';

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

export interface WalkResult {
  links: CheckedLink[];
  anomalies: FoundAnomaly[];
}

/** L1E: integridad-huella 01, integridad-firma 02, the previous huella field not the previous record's 08, a time before the previous one 11, ahead of the clock 13. */
export const ANOMALY_OF = { hash: '01', signature: '02', link: '08', date: '11', ahead: '13' } as const;
