import { buildCancellationRecord, recordQrUrl, type SistemaInformatico } from '@vf/core';
import type { ChainRecordLine, ChainRecordRow, StoredInvoiceContent, StoredLine } from '@vf/db';
import { lineOf, linkOf, placed, storedContentOf, type ChainPlace } from './chain-record-row';

// A cancellation's row is built beside a registration's (chain-record-row.ts), from the same placing and lines; it is
// its own file because it is not on a registration's path.
/** What a cancellation repeats of the record it cancels: the invoice's latest record, its content and lines. */
export interface CancelledRecord extends StoredInvoiceContent {
  accountId: string;
  invoiceId: string;
  issuerNif: string;
  issuerName: string;
  systemSnapshot: SistemaInformatico;
  isProduction: boolean;
  /** The code the cancellation repeats is this record's: NO VERI*FACTU's if it was generated so. */
  qrNoVerifactu: boolean | null;
  lines: StoredLine[];
}

export interface CancellationRowInput extends ChainPlace {
  id: string;
  latest: CancelledRecord;
  isProduction: boolean;
  sinRegistroPrevio: boolean;
  rechazoPrevio: boolean;
  reason: string | null;
  /** The sandbox scenario it goes under, on a scenario chain. */
  sandboxScenario?: string;
}

/**
 * A RegistroAnulacion at its place in the chain, with its huella. The row repeats the content it cancels, so the
 * invoice's latest row is always its whole current state. Pure.
 */
export function cancellationRecordRow(input: CancellationRowInput): { row: ChainRecordRow; lines: ChainRecordLine[] } {
  const { latest } = input;
  const record = buildCancellationRecord({
    invoice: { issuerNif: latest.issuerNif, invoiceNumber: latest.invoiceNumber, invoiceDate: latest.invoiceDate },
    system: latest.systemSnapshot,
    previous: linkOf(input.previous),
    generatedAt: input.generated.literal,
    externalRef: input.id,
    sinRegistroPrevio: input.sinRegistroPrevio,
    rechazoPrevio: input.rechazoPrevio,
  });
  const { lines, accountId, invoiceId, issuerNif, issuerName, systemSnapshot: snapshot } = latest;
  return {
    row: {
      id: input.id,
      invoiceId,
      recordType: 'cancellation',
      accountId,
      ...storedContentOf(latest),
      ...placed(input),
      warnings: [],
      subsanacion: false,
      rechazoPrevio: input.rechazoPrevio ? 'S' : null,
      sinRegistroPrevio: input.sinRegistroPrevio,
      cancellationReason: input.reason,
      issuerNif,
      issuerName,
      systemSnapshot: snapshot,
      isProduction: input.isProduction,
      hash: record.hash,
      qrUrl: recordQrUrl(latest),
      qrNoVerifactu: latest.qrNoVerifactu === true,
      sandboxScenario: input.sandboxScenario ?? null,
    },
    lines: lines.map((line, n) => lineOf(line, input.id, n + 1)),
  };
}
