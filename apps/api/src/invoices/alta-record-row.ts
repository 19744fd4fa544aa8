import { buildQrUrl, buildRegistrationRecord, toAeatDate, type NormalizedInvoice, type ValidationIssue } from '@vf/core';
import { toStoredInvoice, type AppendSystem, type ChainHead, type RegistrationRow, type StoredLine } from '@vf/db';
import type { GenerationTime } from './generation-time';
import { systemSnapshot } from './system-snapshot';

export interface AltaRowInput {
  accountId: string;
  id: string;
  taxpayer: { nif: string; name: string; isProduction: boolean };
  /** 1-based place in the chain. */
  position: number;
  /** The record just before it in the chain: absent for the first (PrimerRegistro=S). */
  previous: Pick<ChainHead, 'id' | 'issuerNif' | 'invoiceNumber' | 'invoiceDate' | 'hash'> | undefined;
  generated: GenerationTime;
  invoice: NormalizedInvoice;
  system: AppendSystem;
  /** IndicadorMultiplesOT: the account keeps records for more than one taxpayer. */
  severalTaxpayers: boolean;
  warnings: ValidationIssue[];
}

/**
 * A RegistroAlta at its place in the chain: the row to store, with the huella computed over its literals. Pure: the
 * caller read the chain head and decides where the row goes.
 */
export function altaRecordRow(input: AltaRowInput): { row: RegistrationRow; lines: StoredLine[] } {
  const { taxpayer, previous } = input;
  const snapshot = systemSnapshot(input.system, input.severalTaxpayers);
  // Subsanacion and RechazoPrevio are not part of the huella (AEAT's huella specification): they are stored on the
  // row and written when sent.
  const record = buildRegistrationRecord({
    invoice: input.invoice,
    issuer: { nif: taxpayer.nif, name: taxpayer.name },
    system: snapshot,
    previous: previous && {
      issuerNif: previous.issuerNif,
      invoiceNumber: previous.invoiceNumber,
      invoiceDate: toAeatDate(previous.invoiceDate),
      hash: previous.hash,
    },
    generatedAt: input.generated.literal,
    externalRef: input.id,
  });
  const qrUrl = buildQrUrl(
    { nif: record.id.issuerNif, invoiceNumber: record.id.invoiceNumber, invoiceDate: record.id.invoiceDate, total: record.total },
    { production: taxpayer.isProduction },
  );
  const stored = toStoredInvoice(input.invoice);
  return {
    row: {
      id: input.id,
      accountId: input.accountId,
      chainSeq: input.position,
      ...stored.content,
      issuerNif: taxpayer.nif,
      issuerName: taxpayer.name,
      systemSnapshot: snapshot,
      isProduction: taxpayer.isProduction,
      generatedAtLiteral: input.generated.literal,
      generatedAt: input.generated.at,
      previousInvoiceId: previous?.id ?? null,
      previousHash: previous?.hash ?? null,
      hash: record.hash,
      qrUrl,
      warnings: input.warnings,
    },
    lines: stored.lines,
  };
}
