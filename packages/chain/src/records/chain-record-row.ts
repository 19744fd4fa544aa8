import {
  buildCancellationRecord,
  buildQrUrl,
  buildRegistrationRecord,
  computeRegistrationHash,
  registrationHashFields,
  toAeatDate,
  type ChainRecord,
  type InvoiceType,
  type NormalizedInvoice,
  type NormalizedRecipient,
  type NormalizedReference,
  type SistemaInformatico,
  type TaxType,
  type ValidationIssue,
} from '@vf/core';
import type {
  ChainRecordLine,
  ChainRecordRow,
  InvoiceReferenceJson,
  RecipientJson,
  RecordSystem,
  SignedRecordForms,
  SignedRecordParts,
  StoredChainRecord,
  StoredInvoiceContent,
  StoredLine,
} from '@vf/db';
import { signatureFromParts, signatureOf } from '@vf/signing';
import { buildRecordXml } from '@vf/xml';

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
// built once and serialised once (chain-append-write-store.ts in @vf/db writes a value that is the very object of the row before only
// once). Keyed by the object itself, so that no list of its fields can fall behind the snapshot's.
const snapshots = new WeakMap<RecordSystem, { several: boolean; snapshot: SistemaInformatico }>();
function sharedSnapshot(system: RecordSystem, several: boolean): SistemaInformatico {
  const known = snapshots.get(system);
  if (known?.several === several) return known.snapshot;
  const snapshot = Object.freeze(systemSnapshot(system, several));
  snapshots.set(system, { several, snapshot });
  return snapshot;
}

export const linkOf = (p: PreviousRecord | undefined) =>
  p && { issuerNif: p.issuerNif, invoiceNumber: p.invoiceNumber, invoiceDate: toAeatDate(p.invoiceDate), hash: p.hash };

/** The columns that place a record in its chain. */
export const placed = (place: ChainPlace) => ({
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
export function lineOf(line: StoredLine, invoiceId: string, lineNo: number): ChainRecordLine {
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

/** The content columns of a stored row (a record repeats them; the worker rebuilds from them). */
export function storedContentOf(row: StoredInvoiceContent): StoredInvoiceContent {
  return {
    taxpayerId: row.taxpayerId,
    computerSystemId: row.computerSystemId,
    invoiceNumber: row.invoiceNumber,
    invoiceDate: row.invoiceDate,
    invoiceType: row.invoiceType,
    description: row.description,
    operationDate: row.operationDate,
    recipient: row.recipient,
    additionalRecipients: row.additionalRecipients,
    issuedBy: row.issuedBy,
    thirdParty: row.thirdParty,
    simplifiedArt7273: row.simplifiedArt7273,
    withoutRecipientArt61d: row.withoutRecipientArt61d,
    coupon: row.coupon,
    rectificationType: row.rectificationType,
    rectifiedBaseAmount: row.rectifiedBaseAmount,
    rectifiedTaxAmount: row.rectifiedTaxAmount,
    rectifiedSurchargeAmount: row.rectifiedSurchargeAmount,
    correctedInvoices: row.correctedInvoices,
    substitutedInvoices: row.substitutedInvoices,
    totalAmount: row.totalAmount,
    totalTaxAmount: row.totalTaxAmount,
  };
}

const toPartyJson = (r: NormalizedRecipient): RecipientJson =>
  'nif' in r
    ? { name: r.name, nif: r.nif }
    : r.country === undefined
      ? { name: r.name, id_type: r.idType, id: r.id }
      : { name: r.name, country: r.country, id_type: r.idType, id: r.id };

const fromPartyJson = (r: RecipientJson): NormalizedRecipient =>
  'nif' in r
    ? { name: r.name, nif: r.nif }
    : r.country === undefined
      ? { name: r.name, idType: r.id_type, id: r.id }
      : { name: r.name, country: r.country, idType: r.id_type, id: r.id };

const toReferenceJson = (c: NormalizedReference): InvoiceReferenceJson => ({
  invoice_number: c.invoiceNumber,
  invoice_date: c.invoiceDate,
});
const fromReferenceJson = (c: InvoiceReferenceJson): NormalizedReference => ({
  invoiceNumber: c.invoice_number,
  invoiceDate: c.invoice_date,
});

/**
 * Both directions between a validated invoice and its rows live here, side by side: the API stores with
 * `toStoredInvoice`, the worker rebuilds with `toNormalizedInvoice`, and the round trip must give back the
 * very values that were hashed and written.
 */
export function toStoredInvoice(invoice: NormalizedInvoice): { content: StoredInvoiceContent; lines: StoredLine[] } {
  const [first, ...others] = invoice.recipients;
  return {
    content: {
      taxpayerId: invoice.taxpayerId,
      computerSystemId: invoice.computerSystemId,
      invoiceNumber: invoice.invoiceNumber,
      invoiceDate: invoice.invoiceDate,
      invoiceType: invoice.invoiceType,
      description: invoice.description,
      operationDate: invoice.operationDate ?? null,
      recipient: first ? toPartyJson(first) : null,
      additionalRecipients: others.map(toPartyJson),
      issuedBy: invoice.issuedBy ?? null,
      thirdParty: invoice.thirdParty ? toPartyJson(invoice.thirdParty) : null,
      simplifiedArt7273: invoice.simplifiedArt7273 ?? false,
      withoutRecipientArt61d: invoice.withoutRecipientArt61d ?? false,
      coupon: invoice.coupon ?? false,
      rectificationType: invoice.rectificationType ?? null,
      rectifiedBaseAmount: invoice.rectifiedBaseAmount ?? null,
      rectifiedTaxAmount: invoice.rectifiedTaxAmount ?? null,
      rectifiedSurchargeAmount: invoice.rectifiedSurchargeAmount ?? null,
      correctedInvoices: invoice.correctedInvoices.map(toReferenceJson),
      substitutedInvoices: invoice.substitutedInvoices.map(toReferenceJson),
      totalAmount: invoice.totalAmount,
      totalTaxAmount: invoice.totalTaxAmount,
    },
    lines: invoice.lines.map((l) => ({
      taxType: l.taxType,
      regimeType: l.regimeType ?? null,
      operationType: l.operationType,
      baseAmount: l.baseAmount,
      costBaseAmount: l.costBaseAmount ?? null,
      taxRate: l.taxRate ?? null,
      taxAmount: l.taxAmount ?? null,
      surchargeRate: l.surchargeRate ?? null,
      surchargeAmount: l.surchargeAmount ?? null,
    })),
  };
}

export function toNormalizedInvoice(row: StoredInvoiceContent, lines: StoredLine[]): NormalizedInvoice {
  return {
    taxpayerId: row.taxpayerId,
    computerSystemId: row.computerSystemId,
    invoiceNumber: row.invoiceNumber,
    invoiceDate: row.invoiceDate,
    invoiceType: row.invoiceType as InvoiceType,
    description: row.description,
    operationDate: row.operationDate ?? undefined,
    recipients: row.recipient ? [row.recipient, ...row.additionalRecipients].map(fromPartyJson) : [],
    issuedBy: row.issuedBy ?? undefined,
    thirdParty: row.thirdParty ? fromPartyJson(row.thirdParty) : undefined,
    simplifiedArt7273: row.simplifiedArt7273 || undefined,
    withoutRecipientArt61d: row.withoutRecipientArt61d || undefined,
    coupon: row.coupon || undefined,
    rectificationType: (row.rectificationType as 'S' | 'I' | null) ?? undefined,
    rectifiedBaseAmount: row.rectifiedBaseAmount ?? undefined,
    rectifiedTaxAmount: row.rectifiedTaxAmount ?? undefined,
    rectifiedSurchargeAmount: row.rectifiedSurchargeAmount ?? undefined,
    correctedInvoices: row.correctedInvoices.map(fromReferenceJson),
    substitutedInvoices: row.substitutedInvoices.map(fromReferenceJson),
    lines: lines.map((l) => ({
      taxType: l.taxType as TaxType,
      regimeType: l.regimeType ?? undefined,
      operationType: l.operationType,
      baseAmount: l.baseAmount,
      costBaseAmount: l.costBaseAmount ?? undefined,
      taxRate: l.taxRate ?? undefined,
      taxAmount: l.taxAmount ?? undefined,
      surchargeRate: l.surchargeRate ?? undefined,
      surchargeAmount: l.surchargeAmount ?? undefined,
    })),
    totalAmount: row.totalAmount,
    totalTaxAmount: row.totalTaxAmount,
  };
}

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
function recordOfRow(row: StoredChainRecord): ChainRecord {
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

const SIGNATURE_ID = /^xmldsig-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * Form 1: the record as buildRecordXml writes its row, signed as signRecord writes it (decision 0064). A form's writer
 * never changes once records are kept in it: a writer that writes a row differently is a new form, and the old one
 * keeps writing what it wrote (signed-record-forms.test.ts pins its bytes). Apart from the store's registration
 * (signed-record-forms.ts), @vf/db imported for types only, so that the signature pool's threads load the writers alone.
 */
function formOne(row: Parameters<SignedRecordForms['rebuild']>[1], parts: SignedRecordParts) {
  const record = buildRecordXml(recordOfRow(row));
  return signatureFromParts(record, {
    id: `xmldsig-${parts.signatureId ?? row.id}`,
    signingTime: parts.signingTime.toISOString(),
    signingCertificate: parts.signingCertificate,
    certificate: parts.certificate,
  });
}

const unknownForm = (form: number, id: string) => new Error(`record ${id} is kept in form ${form}, which this version cannot write`);

/**
 * The store's writers, and for the signature pool's threads the canonical SignedInfo the same writer makes of a row and
 * parts: the bytes the RSA signature covers. It holds the digests of the record and of its signed properties, so the
 * signature verifies over it only if neither the row, nor the signing time, nor the certificate changed since signing.
 */
export const signedRecordForms: SignedRecordForms & {
  signedInfo(form: number, row: Parameters<SignedRecordForms['rebuild']>[1], parts: SignedRecordParts): Buffer;
} = {
  current: 1,

  partsOf(recordId, signed) {
    const read = signatureOf(signed);
    if (!read) return undefined;
    const id = SIGNATURE_ID.exec(read.parts.id);
    const signingTime = new Date(read.parts.signingTime);
    // Only what the parts write again as they were: anything else is compared and kept packed anyway.
    if (!id || Number.isNaN(signingTime.getTime()) || signingTime.toISOString() !== read.parts.signingTime) return undefined;
    const signatureValue = Buffer.from(read.value, 'base64');
    if (signatureValue.toString('base64') !== read.value) return undefined;
    return {
      signatureValue,
      signingTime,
      signatureId: id[1] === recordId ? null : id[1],
      certificate: read.parts.certificate,
      signingCertificate: read.parts.signingCertificate,
    };
  },

  rebuild(form, row, parts) {
    if (form === 1) return formOne(row, parts).complete(parts.signatureValue.toString('base64'));
    throw unknownForm(form, row.id);
  },

  signedInfo(form, row, parts) {
    if (form === 1) return formOne(row, parts).signedInfo;
    throw unknownForm(form, row.id);
  },
};
