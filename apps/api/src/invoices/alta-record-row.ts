import { buildQrUrl, buildRegistrationRecord, type NormalizedInvoice, type ValidationIssue } from '@vf/core';
import type { DbOrTx } from '@vf/db';
import { taxpayerStore, toStoredInvoice, type NewInvoice, type NewInvoiceLine, type SystemRow } from '@vf/db/src/stores';
import { previousLink, type ChainSlot } from './chain-slot';
import { systemSnapshot } from './system-snapshot';

export interface AltaRowInput {
  accountId: string;
  id: string;
  /** The invoice the record belongs to: `id` itself for a registration. */
  invoiceId: string;
  recordType: 'registration' | 'correction';
  rechazoPrevio?: 'S' | 'X';
  invoice: NormalizedInvoice;
  system: SystemRow;
  warnings: ValidationIssue[];
}

/** A RegistroAlta at the slot's place in the chain: the row to store, with the huella computed over its literals. */
export async function altaRecordRow(tx: DbOrTx, slot: ChainSlot, input: AltaRowInput): Promise<{ row: NewInvoice; lines: NewInvoiceLine[] }> {
  const { taxpayer } = slot;
  const snapshot = systemSnapshot(input.system, (await taxpayerStore.countForAccount(tx, input.accountId)) > 1);
  // Subsanacion and RechazoPrevio are not part of the huella (NOTES §1.3): they are stored on the row and written when sent.
  const record = buildRegistrationRecord({
    invoice: input.invoice,
    issuer: { nif: taxpayer.nif, name: taxpayer.name },
    system: snapshot,
    previous: previousLink(slot),
    generatedAt: slot.generated.literal,
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
      invoiceId: input.invoiceId,
      chainId: slot.chain.id,
      accountId: input.accountId,
      chainSeq: slot.position,
      recordType: input.recordType,
      subsanacion: input.recordType === 'correction',
      rechazoPrevio: input.rechazoPrevio ?? null,
      ...stored.content,
      issuerNif: taxpayer.nif,
      issuerName: taxpayer.name,
      systemSnapshot: snapshot,
      isProduction: taxpayer.isProduction,
      generatedAtLiteral: slot.generated.literal,
      generatedAt: slot.generated.at,
      previousInvoiceId: slot.previous?.id ?? null,
      previousHash: slot.previous?.hash ?? null,
      hash: record.hash,
      qrUrl,
      authorityStatus: 'queued',
      warnings: input.warnings,
    },
    lines: stored.lines,
  };
}
