import { buildCancellationRecord, buildRegistrationRecord, toAeatDate, type ChainRecord } from '@vf/core';
import type { StoredChainRecord } from '@vf/db';
import { toNormalizedInvoice } from './invoice-record-mapping';

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
 * Rebuilds, from the stored row, the very record that was hashed when it was generated (same literals, same
 * FechaHoraHusoGenRegistro, same previous huella) and proves it by recomputing the huella. Never re-hashes:
 * a mismatch throws and the record is not sent. The worker sends what this returns; the API shows it.
 */
export function rebuildChainRecord(row: StoredChainRecord): ChainRecord {
  const record = recordOfRow(row);
  if (record.hash !== row.hash) throw new HashMismatchError(row.id, row.hash, record.hash);
  return record;
}

/**
 * The record the row writes, its huella computed and not compared: what rebuilding a signed record kept as parts
 * needs, where a row changed since must still give the bytes its signature then fails to verify, not nothing.
 */
export function recordOfRow(row: StoredChainRecord): ChainRecord {
  const previous = row.previous
    ? {
        issuerNif: row.previous.issuerNif,
        invoiceNumber: row.previous.invoiceNumber,
        invoiceDate: toAeatDate(row.previous.invoiceDate),
        hash: row.previous.hash,
      }
    : undefined;
  return row.recordType === 'cancellation'
    ? buildCancellationRecord({
        invoice: { issuerNif: row.issuerNif, invoiceNumber: row.invoiceNumber, invoiceDate: row.invoiceDate },
        system: row.systemSnapshot,
        previous,
        generatedAt: row.generatedAtLiteral,
        externalRef: row.id,
        sinRegistroPrevio: row.sinRegistroPrevio,
        rechazoPrevio: row.rechazoPrevio === 'S',
      })
    : buildRegistrationRecord({
        invoice: toNormalizedInvoice(row, row.lines),
        issuer: { nif: row.issuerNif, name: row.issuerName },
        system: row.systemSnapshot,
        previous,
        generatedAt: row.generatedAtLiteral,
        externalRef: row.id,
        flags: row.subsanacion ? { subsanacion: true, ...(row.rechazoPrevio ? { rechazoPrevio: row.rechazoPrevio } : {}) } : undefined,
      });
}
