import { buildRegistrationRecord, toAeatDate, type InvoiceType, type NormalizedInvoice, type RegistrationRecord, type TaxType } from '@vf/core';
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

function toNormalizedInvoice(row: BatchInvoice): NormalizedInvoice {
  const r = row.recipient;
  return {
    taxpayerId: row.taxpayerId,
    computerSystemId: row.computerSystemId,
    invoiceNumber: row.invoiceNumber,
    invoiceDate: row.invoiceDate,
    invoiceType: row.invoiceType as InvoiceType,
    description: row.description,
    operationDate: row.operationDate ?? undefined,
    recipient: r ? ('nif' in r ? { name: r.name, nif: r.nif } : { name: r.name, country: r.country, idType: r.id_type, id: r.id }) : undefined,
    rectificationType: (row.rectificationType as 'S' | 'I' | null) ?? undefined,
    rectifiedBaseAmount: row.rectifiedBaseAmount ?? undefined,
    rectifiedTaxAmount: row.rectifiedTaxAmount ?? undefined,
    correctedInvoices: row.correctedInvoices.map((c) => ({ invoiceNumber: c.invoice_number, invoiceDate: c.invoice_date })),
    lines: row.lines.map((l) => ({
      taxType: l.taxType as TaxType,
      regimeType: l.regimeType ?? undefined,
      operationType: l.operationType,
      baseAmount: l.baseAmount,
      taxRate: l.taxRate ?? undefined,
      taxAmount: l.taxAmount ?? undefined,
      surchargeRate: l.surchargeRate ?? undefined,
      surchargeAmount: l.surchargeAmount ?? undefined,
    })),
    totalAmount: row.totalAmount,
    totalTaxAmount: row.totalTaxAmount,
  };
}

/**
 * Rebuilds, from the stored row, the very RegistroAlta that was hashed at registration (same literals, same
 * FechaHoraHusoGenRegistro, same previous huella) and proves it by recomputing the huella. Never re-hashes:
 * a mismatch throws and the record is not sent.
 */
export function rebuildRecord(row: BatchInvoice): RegistrationRecord {
  const record = buildRegistrationRecord({
    invoice: toNormalizedInvoice(row),
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
