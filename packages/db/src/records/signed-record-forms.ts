import type { StoredChainRecord } from './chain-record-shape';

/** What a signed record holds that its row does not: its signature's own values (decision 0064). */
export interface SignedRecordParts {
  /** The RSA signature value, raw. */
  signatureValue: Buffer;
  signingTime: Date;
  /** The uuid of the signature's Id when it is not the record's own id (`xmldsig-<record id>`); else null. */
  signatureId: string | null;
  /** X509Certificate's content (base64), kept once in signing_certificates. */
  certificate: string;
  /** SigningCertificate's content, the same in every record of one certificate and kept with it. */
  signingCertificate: string;
}

/**
 * How a signed record is written from its row and its parts. The writers are @vf/chain's (the record's XML, its
 * signature), which uses this package: it hands them over when loaded, so the store, which only keeps and reads,
 * can rebuild what it kept.
 */
export interface SignedRecordForms {
  /** The form records are kept in now: a change of what `rebuild` writes for a row is a new form. */
  current: number;
  /** The parts of a signed record, or undefined when it is not of the form the writers write (it is then kept packed). */
  partsOf(recordId: string, signed: string): SignedRecordParts | undefined;
  /** The signed record's text from its row and parts, as the writer of `form` wrote it; throws for an unknown form. */
  rebuild(form: number, row: StoredChainRecord, parts: SignedRecordParts): string;
}

let forms: SignedRecordForms | undefined;

/** Called by @vf/chain when it is loaded: every process that signs or reads signed records loads it. */
export function useSignedRecordForms(given: SignedRecordForms): void {
  forms = given;
}

/** The writers, when the process has them; a process without them keeps records packed and cannot read parts. */
export function signedRecordForms(): SignedRecordForms | undefined {
  return forms;
}
