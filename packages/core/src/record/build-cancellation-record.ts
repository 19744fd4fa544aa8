import type { CancellationRecord } from '../cancellation-record';
import { toAeatDate } from '../dates';
import { computeCancellationHash } from '../hash';
import type { ChainLink, SistemaInformatico } from '../registration-record';

export interface CancellationRecordSource {
  /** The cancelled invoice as stored: issuer NIF, number and issue date (YYYY-MM-DD). */
  invoice: { issuerNif: string; invoiceNumber: string; invoiceDate: string };
  system: SistemaInformatico;
  /** The record generated just before this one in the taxpayer's chain; absent for the first. */
  previous?: ChainLink;
  /** FechaHoraHusoGenRegistro literal, fixed when the anulación is generated and reused on every resend. */
  generatedAt: string;
  externalRef?: string;
  /** The authority holds no alta of the invoice (never accepted, or rejected). */
  sinRegistroPrevio?: boolean;
  /** A previous anulación of the invoice was rejected. */
  rechazoPrevio?: boolean;
}

/**
 * Maps a cancellation to the RegistroAnulacion literals and computes its huella (AEAT's huella specification).
 * Deterministic, like buildRegistrationRecord: rebuilding from the stored row gives the identical record.
 */
export function buildCancellationRecord(src: CancellationRecordSource): CancellationRecord {
  const id = {
    issuerNif: src.invoice.issuerNif,
    invoiceNumber: src.invoice.invoiceNumber,
    invoiceDate: toAeatDate(src.invoice.invoiceDate),
  };
  const record: CancellationRecord = { kind: 'cancellation', id, system: src.system, generatedAt: src.generatedAt, hash: '' };
  if (src.externalRef !== undefined) record.externalRef = src.externalRef;
  if (src.sinRegistroPrevio) record.sinRegistroPrevio = true;
  if (src.rechazoPrevio) record.rechazoPrevio = true;
  if (src.previous) record.previous = src.previous;
  record.hash = computeCancellationHash({ ...id, previousHash: src.previous?.hash, generatedAt: src.generatedAt });
  return record;
}
