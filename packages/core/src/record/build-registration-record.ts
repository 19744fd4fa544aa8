import { isExemptionCode, isIdType, isOperationQualification } from '../code-lists';
import { toAeatDate } from '../dates';
import { computeRegistrationHash, type RegistrationHashFields } from '../hash';
import { parseAmount } from '../money';
import type {
  ChainLink,
  InvoiceId,
  RecordLine,
  RecordRecipient,
  RegistrationFlags,
  RegistrationRecord,
  SistemaInformatico,
} from '../registration-record';
import type { NormalizedInvoice, NormalizedLine, NormalizedRecipient, NormalizedReference } from '../validation/types';

export interface RegistrationRecordSource {
  invoice: NormalizedInvoice;
  issuer: { nif: string; name: string };
  system: SistemaInformatico;
  /** The record generated just before this one in the taxpayer's chain; absent for the first. */
  previous?: ChainLink;
  /** FechaHoraHusoGenRegistro literal, fixed at registration and reused on every resend. */
  generatedAt: string;
  externalRef?: string;
  /** Subsanacion / RechazoPrevio of a correction (operations matrix, AEAT "Validaciones y errores" v1.2.0 annex 6); not hashed. */
  flags?: RegistrationFlags;
}

export interface RegistrationHashSource {
  invoice: Pick<NormalizedInvoice, 'invoiceNumber' | 'invoiceDate' | 'invoiceType' | 'totalTaxAmount' | 'totalAmount'>;
  issuerNif: string;
  /** Huella of the record before it in the chain; absent for the first. */
  previousHash?: string;
  /** FechaHoraHusoGenRegistro literal. */
  generatedAt: string;
}

/**
 * The literals of a RegistroAlta that its huella is computed over, exactly as buildRegistrationRecord writes them. A
 * writer that needs only the huella and the QR code's values (registering a batch) takes them from here instead of
 * building the whole record and dropping it: the record the worker rebuilds still hashes to the same huella.
 */
export function registrationHashFields(src: RegistrationHashSource): RegistrationHashFields {
  const { invoice } = src;
  return {
    issuerNif: src.issuerNif,
    invoiceNumber: invoice.invoiceNumber,
    invoiceDate: toAeatDate(invoice.invoiceDate),
    invoiceType: invoice.invoiceType,
    totalTax: invoice.totalTaxAmount,
    total: invoice.totalAmount,
    previousHash: src.previousHash,
    generatedAt: src.generatedAt,
  };
}

// Macrodato = S is mandatory from ±100,000,000.00 (1139) and refused below (1138).
const MACRODATO_THRESHOLD_CENTS = 10_000_000_000n;

/**
 * Maps a validated invoice to the RegistroAlta literals and computes its huella. Deterministic:
 * the API calls it at registration (and stores the hash), the worker calls it again from the
 * stored row and must get the identical record.
 */
export function buildRegistrationRecord(src: RegistrationRecordSource): RegistrationRecord {
  const { invoice, issuer } = src;
  const hashed = registrationHashFields({ invoice, issuerNif: issuer.nif, previousHash: src.previous?.hash, generatedAt: src.generatedAt });
  const id: InvoiceId = { issuerNif: hashed.issuerNif, invoiceNumber: hashed.invoiceNumber, invoiceDate: hashed.invoiceDate };
  // The invoices a record corrects or replaces are the issuer's own: their IDEmisorFactura is the issuer's NIF.
  const references = (refs: NormalizedReference[]): InvoiceId[] | undefined =>
    refs.length
      ? refs.map((c) => ({ issuerNif: issuer.nif, invoiceNumber: c.invoiceNumber, invoiceDate: toAeatDate(c.invoiceDate) }))
      : undefined;
  const record: RegistrationRecord = {
    id,
    issuerName: issuer.name,
    externalRef: src.externalRef,
    flags: presentFlags(src.flags),
    invoiceType: invoice.invoiceType,
    rectificationType: invoice.rectificationType,
    rectifiedInvoices: references(invoice.correctedInvoices),
    substitutedInvoices: references(invoice.substitutedInvoices),
    rectificationAmounts: rectificationAmounts(invoice),
    operationDate: invoice.operationDate && invoice.operationDate !== invoice.invoiceDate ? toAeatDate(invoice.operationDate) : undefined,
    description: invoice.description,
    simplifiedArt7273: invoice.simplifiedArt7273,
    withoutRecipientArt61d: invoice.withoutRecipientArt61d,
    macrodato: isMacrodato(invoice.totalAmount) || undefined,
    issuedBy: invoice.issuedBy,
    thirdParty: invoice.thirdParty && toRecordRecipient(invoice.thirdParty),
    recipients: invoice.recipients.length ? invoice.recipients.map(toRecordRecipient) : undefined,
    coupon: invoice.coupon,
    lines: invoice.lines.map(toRecordLine),
    totalTax: invoice.totalTaxAmount,
    total: invoice.totalAmount,
    previous: src.previous,
    system: src.system,
    generatedAt: src.generatedAt,
    hash: '',
  };
  record.hash = computeRegistrationHash(hashed);
  return dropUndefined(record);
}

// A flag set that says nothing is no flag set: an alta without Subsanacion/RechazoPrevio is a normal alta.
function presentFlags(flags: RegistrationFlags | undefined): RegistrationFlags | undefined {
  if (!flags) return undefined;
  const out: RegistrationFlags = {};
  if (flags.subsanacion) out.subsanacion = true;
  if (flags.rechazoPrevio) out.rechazoPrevio = flags.rechazoPrevio;
  return Object.keys(out).length ? out : undefined;
}

// ImporteRectificacion goes with a substitution (TipoRectificativa S) only; CuotaRecargoRectificado when given.
function rectificationAmounts(invoice: NormalizedInvoice): RegistrationRecord['rectificationAmounts'] {
  const { rectifiedBaseAmount: base, rectifiedTaxAmount: tax, rectifiedSurchargeAmount: surcharge } = invoice;
  if (invoice.rectificationType !== 'S' || base === undefined || tax === undefined) return undefined;
  return surcharge === undefined ? { base, tax } : { base, tax, surcharge };
}

function isMacrodato(total: string): boolean {
  const parsed = parseAmount(total);
  if (!parsed.ok) throw new RangeError(`Not an amount literal: ${JSON.stringify(total)}`);
  const magnitude = parsed.cents < 0n ? -parsed.cents : parsed.cents;
  return magnitude >= MACRODATO_THRESHOLD_CENTS;
}

function toRecordRecipient(recipient: NormalizedRecipient): RecordRecipient {
  if ('nif' in recipient) return { name: recipient.name, nif: recipient.nif };
  if (!isIdType(recipient.idType)) throw new RangeError(`Unknown IDType: ${JSON.stringify(recipient.idType)}`);
  const { name, country, idType, id } = recipient;
  return country === undefined ? { name, idType, id } : { name, country, idType, id };
}

function toRecordLine(line: NormalizedLine): RecordLine {
  const { operationType } = line;
  const out: RecordLine = { tax: line.taxType, base: line.baseAmount };
  if (line.regimeType !== undefined) out.regime = line.regimeType;
  if (line.costBaseAmount !== undefined) out.costBase = line.costBaseAmount;
  if (isOperationQualification(operationType)) out.qualification = operationType;
  else if (isExemptionCode(operationType)) out.exemption = operationType;
  else throw new RangeError(`Unknown operation type: ${JSON.stringify(operationType)}`);
  if (line.taxRate !== undefined) out.rate = line.taxRate;
  if (line.taxAmount !== undefined) out.taxAmount = line.taxAmount;
  if (line.surchargeRate !== undefined) out.surchargeRate = line.surchargeRate;
  if (line.surchargeAmount !== undefined) out.surchargeAmount = line.surchargeAmount;
  return out;
}

// Optional members are omitted rather than set to undefined, so a record rebuilt from the database
// deep-equals the one built at registration and serialisers never meet an explicit undefined.
function dropUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
