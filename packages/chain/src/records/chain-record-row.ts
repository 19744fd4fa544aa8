import {
  buildCancellationRecord,
  buildQrUrl,
  recordQrUrl,
  computeRegistrationHash,
  registrationHashFields,
  toAeatDate,
  type NormalizedInvoice,
  type SistemaInformatico,
  type ValidationIssue,
} from '@vf/core';
import type { ChainRecordLine, ChainRecordRow, RecordSystem, StoredInvoiceContent, StoredLine } from '@vf/db';
import { storedContentOf, toStoredInvoice } from './invoice-record-mapping';

/** The record just before a new one in its chain: absent for the first (PrimerRegistro=S). */
export interface PreviousRecord {
  id: string;
  issuerNif: string;
  invoiceNumber: string;
  invoiceDate: string;
  hash: string;
}

/** Where a new record goes: its chain, its place (1-based) and the record before it. */
export interface ChainPlace {
  chainId: string;
  position: number;
  previous: PreviousRecord | undefined;
  /** FechaHoraHusoGenRegistro exactly as hashed and sent, and as a date. */
  generated: { at: Date; literal: string };
}

const yesNo = (b: boolean) => (b ? 'S' : 'N');

/**
 * The SistemaInformatico block as of this record. IndicadorMultiplesOT is computed, never chosen (AEAT's developer
 * FAQ, "Aclaraciones a dudas de los desarrolladores" §4: S for every record of a user of the software with more than
 * one taxpayer): S when the system can keep several taxpayers' records (TipoUsoPosibleMultiOT=S) and the account
 * has more than one. A single-taxpayer system only ever keeps one taxpayer's records, so it says N/N.
 */
export function systemSnapshot(system: RecordSystem, accountHasSeveralTaxpayers: boolean): SistemaInformatico {
  return {
    NombreRazon: system.vendorName,
    NIF: system.vendorNif,
    NombreSistemaInformatico: system.name,
    IdSistemaInformatico: system.systemCode,
    Version: system.version,
    NumeroInstalacion: system.installationNumber,
    TipoUsoPosibleSoloVerifactu: yesNo(system.onlySupportsVerifactu),
    TipoUsoPosibleMultiOT: yesNo(system.supportsMultipleTaxpayers),
    IndicadorMultiplesOT: yesNo(system.supportsMultipleTaxpayers && accountHasSeveralTaxpayers),
  };
}

// The records of one write name the same system object (the read's, never changed after): they share one snapshot,
// built once and serialised once (chain-append-columns.ts in @vf/db writes a value that is the very object of the row before only
// once). Keyed by the object itself, so that no list of its fields can fall behind the snapshot's.
const snapshots = new WeakMap<RecordSystem, { several: boolean; snapshot: SistemaInformatico }>();
function sharedSnapshot(system: RecordSystem, several: boolean): SistemaInformatico {
  const known = snapshots.get(system);
  if (known?.several === several) return known.snapshot;
  const snapshot = Object.freeze(systemSnapshot(system, several));
  snapshots.set(system, { several, snapshot });
  return snapshot;
}

const linkOf = (p: PreviousRecord | undefined) =>
  p && { issuerNif: p.issuerNif, invoiceNumber: p.invoiceNumber, invoiceDate: toAeatDate(p.invoiceDate), hash: p.hash };

const placed = (place: ChainPlace) => ({
  chainSeq: place.position,
  generatedAtLiteral: place.generated.literal,
  generatedAt: place.generated.at,
  previousInvoiceId: place.previous?.id ?? null,
  previousHash: place.previous?.hash ?? null,
});

export interface AltaRowInput extends ChainPlace {
  accountId: string;
  id: string;
  /** Absent for a registration; the invoice's first record for a correction (subsanación). */
  correcting?: { invoiceId: string; rechazoPrevio: 'S' | 'X' | null };
  taxpayer: { nif: string; name: string; isProduction: boolean };
  invoice: NormalizedInvoice;
  system: RecordSystem;
  /** IndicadorMultiplesOT: the account keeps records for more than one taxpayer. */
  severalTaxpayers: boolean;
  warnings: ValidationIssue[];
  /** The sandbox scenario it goes under, on a scenario chain (kept beside the record, never in it). */
  sandboxScenario?: string;
  /** Generated in NO VERI*FACTU: its QR code points at ValidarQRNoVerifactu. */
  noVerifactu?: boolean;
}

/**
 * A RegistroAlta (registration or correction) at its place in the chain, with the huella over its literals. Pure. Only
 * the huella's and the QR code's literals are computed, not the whole record (the worker builds that from the row
 * when it sends it, and proves it hashes to this huella).
 */
export function altaRecordRow(input: AltaRowInput): { row: ChainRecordRow; lines: ChainRecordLine[] } {
  const { taxpayer, id } = input;
  const snapshot = sharedSnapshot(input.system, input.severalTaxpayers);
  // Subsanacion and RechazoPrevio are not part of the huella (AEAT's huella specification): they are stored on the
  // row and written when sent.
  const hashed = registrationHashFields({
    invoice: input.invoice,
    issuerNif: taxpayer.nif,
    previousHash: input.previous?.hash,
    generatedAt: input.generated.literal,
  });
  const qrUrl = buildQrUrl(
    { nif: hashed.issuerNif, invoiceNumber: hashed.invoiceNumber, invoiceDate: hashed.invoiceDate, total: hashed.total },
    { production: taxpayer.isProduction, noVerifactu: input.noVerifactu },
  );
  const { content: c, lines: storedLines } = toStoredInvoice(input.invoice);
  const lines: ChainRecordLine[] = new Array(storedLines.length);
  storedLines.forEach((line, n) => (lines[n] = lineOf(line, id, n + 1)));
  // Every field written out (no spread): the row is made whole in one allocation, not grown field by field, once per
  // record of a batch.
  return {
    row: {
      id,
      invoiceId: input.correcting?.invoiceId ?? id,
      recordType: input.correcting ? 'correction' : 'registration',
      accountId: input.accountId,
      taxpayerId: c.taxpayerId,
      computerSystemId: c.computerSystemId,
      invoiceNumber: c.invoiceNumber,
      invoiceDate: c.invoiceDate,
      invoiceType: c.invoiceType,
      description: c.description,
      operationDate: c.operationDate,
      recipient: c.recipient,
      additionalRecipients: c.additionalRecipients,
      issuedBy: c.issuedBy,
      thirdParty: c.thirdParty,
      simplifiedArt7273: c.simplifiedArt7273,
      withoutRecipientArt61d: c.withoutRecipientArt61d,
      coupon: c.coupon,
      rectificationType: c.rectificationType,
      rectifiedBaseAmount: c.rectifiedBaseAmount,
      rectifiedTaxAmount: c.rectifiedTaxAmount,
      rectifiedSurchargeAmount: c.rectifiedSurchargeAmount,
      correctedInvoices: c.correctedInvoices,
      substitutedInvoices: c.substitutedInvoices,
      totalAmount: c.totalAmount,
      totalTaxAmount: c.totalTaxAmount,
      chainSeq: input.position,
      generatedAtLiteral: input.generated.literal,
      generatedAt: input.generated.at,
      previousInvoiceId: input.previous?.id ?? null,
      previousHash: input.previous?.hash ?? null,
      warnings: input.warnings,
      subsanacion: input.correcting !== undefined,
      rechazoPrevio: input.correcting?.rechazoPrevio ?? null,
      sinRegistroPrevio: false,
      cancellationReason: null,
      issuerNif: taxpayer.nif,
      issuerName: taxpayer.name,
      systemSnapshot: snapshot,
      isProduction: taxpayer.isProduction,
      hash: computeRegistrationHash(hashed),
      qrUrl,
      qrNoVerifactu: input.noVerifactu === true,
      sandboxScenario: input.sandboxScenario ?? null,
    },
    lines,
  };
}

/** A line of record `invoiceId`, numbered from 1. */
function lineOf(line: StoredLine, invoiceId: string, lineNo: number): ChainRecordLine {
  return {
    taxType: line.taxType,
    regimeType: line.regimeType,
    operationType: line.operationType,
    baseAmount: line.baseAmount,
    costBaseAmount: line.costBaseAmount,
    taxRate: line.taxRate,
    taxAmount: line.taxAmount,
    surchargeRate: line.surchargeRate,
    surchargeAmount: line.surchargeAmount,
    invoiceId,
    lineNo,
  };
}

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
