import { buildRegistrationRecord, toAeatDate, type RegistrationRecord } from '@vf/core';
import { toNormalizedInvoice } from '@vf/db/src/stores/invoice-record-mapping';
import type { BatchInvoice } from '@vf/db/src/stores/submission-batch-store';

/** The record rebuilt from the stored row does not hash to the stored huella: sending it would be a different record. */
export class HashMismatchError extends Error {
  constructor(
    readonly invoiceId: string,
    readonly storedHash: string,
    readonly rebuiltHash: string,
  ) {
    super(`the record rebuilt from the database hashes to ${rebuiltHash}, not to the stored huella ${storedHash}; it was not sent`);
    this.name = 'HashMismatchError';
  }
}

/**
 * Rebuilds, from the stored row, the very RegistroAlta that was hashed at registration (same literals, same
 * FechaHoraHusoGenRegistro, same previous huella) and proves it by recomputing the huella. Never re-hashes:
 * a mismatch throws and the record is not sent.
 */
export function rebuildRecord(row: BatchInvoice): RegistrationRecord {
  const record = buildRegistrationRecord({
    invoice: toNormalizedInvoice(row, row.lines),
    issuer: { nif: row.issuerNif, name: row.issuerName },
    system: row.systemSnapshot,
    previous: row.previous
      ? {
          issuerNif: row.previous.issuerNif,
          invoiceNumber: row.previous.invoiceNumber,
          invoiceDate: toAeatDate(row.previous.invoiceDate),
          hash: row.previous.hash,
        }
      : undefined,
    generatedAt: row.generatedAtLiteral,
    externalRef: row.id,
  });
  if (record.hash !== row.hash) throw new HashMismatchError(row.id, row.hash, record.hash);
  return record;
}
