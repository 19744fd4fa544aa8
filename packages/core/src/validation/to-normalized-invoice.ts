import type { InvoiceType, IssuedBy } from '../registration-record';
import type { Amount, Read } from './field-readers';
import type { ParsedLine } from './read-breakdown';
import type { ParsedReference } from './read-invoice-references';
import type { ParsedRecipient } from './read-recipient';
import type { NormalizedInvoice, NormalizedLine, NormalizedRecipient } from './types';

export interface ParsedInvoice {
  taxpayerId: Read<string>;
  computerSystemId: Read<string>;
  invoiceNumber: Read<string>;
  invoiceDate: Read<string>;
  invoiceType: Read<InvoiceType>;
  description: Read<string>;
  operationDate: Read<string>;
  recipients: Read<ParsedRecipient[]>;
  issuedBy: Read<IssuedBy>;
  thirdParty: Read<ParsedRecipient>;
  simplifiedArt7273: Read<boolean>;
  withoutRecipientArt61d: Read<boolean>;
  coupon: Read<boolean>;
  rectificationType: Read<'S' | 'I'>;
  rectifiedBaseAmount: Read<Amount>;
  rectifiedTaxAmount: Read<Amount>;
  rectifiedSurchargeAmount: Read<Amount>;
  correctedInvoices: Read<ParsedReference[]>;
  substitutedInvoices: Read<ParsedReference[]>;
  lines: Read<ParsedLine[]>;
  totalAmount: Read<Amount>;
  totalTaxAmount: Read<Amount>;
}

/**
 * The normalised invoice of a request that raised no error. Every mandatory value is then present;
 * a missing one means a rule forgot to report it, which is a bug worth failing loudly on.
 */
export function toNormalizedInvoice(p: ParsedInvoice): NormalizedInvoice {
  const invoice: NormalizedInvoice = {
    taxpayerId: must(p.taxpayerId, 'taxpayer_id'),
    computerSystemId: must(p.computerSystemId, 'computer_system_id'),
    invoiceNumber: must(p.invoiceNumber, 'invoice_number'),
    invoiceDate: must(p.invoiceDate, 'invoice_date'),
    invoiceType: must(p.invoiceType, 'invoice_type'),
    description: must(p.description, 'description'),
    recipients: (p.recipients ?? []).map(toNormalizedRecipient),
    correctedInvoices: p.correctedInvoices ?? [],
    substitutedInvoices: p.substitutedInvoices ?? [],
    lines: must(p.lines, 'breakdown').map(toNormalizedLine),
    totalAmount: must(p.totalAmount, 'total_amount').literal,
    totalTaxAmount: must(p.totalTaxAmount, 'total_tax_amount').literal,
  };
  if (p.operationDate) invoice.operationDate = p.operationDate;
  if (p.issuedBy) invoice.issuedBy = p.issuedBy;
  if (p.thirdParty) invoice.thirdParty = toNormalizedRecipient(p.thirdParty);
  // An S/N flag left false is the same to the authority as one left out: only true is kept (and written as S).
  if (p.simplifiedArt7273) invoice.simplifiedArt7273 = true;
  if (p.withoutRecipientArt61d) invoice.withoutRecipientArt61d = true;
  if (p.coupon) invoice.coupon = true;
  if (p.rectificationType) invoice.rectificationType = p.rectificationType;
  if (p.rectifiedBaseAmount) invoice.rectifiedBaseAmount = p.rectifiedBaseAmount.literal;
  if (p.rectifiedTaxAmount) invoice.rectifiedTaxAmount = p.rectifiedTaxAmount.literal;
  if (p.rectifiedSurchargeAmount) invoice.rectifiedSurchargeAmount = p.rectifiedSurchargeAmount.literal;
  return invoice;
}

function toNormalizedLine(line: ParsedLine): NormalizedLine {
  const out: NormalizedLine = {
    taxType: must(line.taxType, `${line.path}.tax_type`),
    operationType: must(line.operationType, `${line.path}.operation_type`),
    baseAmount: must(line.baseAmount, `${line.path}.base_amount`).literal,
  };
  if (line.regimeType) out.regimeType = line.regimeType;
  if (line.costBaseAmount) out.costBaseAmount = line.costBaseAmount.literal;
  if (line.taxRate) out.taxRate = line.taxRate.literal;
  if (line.taxAmount) out.taxAmount = line.taxAmount.literal;
  if (line.surchargeRate) out.surchargeRate = line.surchargeRate.literal;
  if (line.surchargeAmount) out.surchargeAmount = line.surchargeAmount.literal;
  return out;
}

function toNormalizedRecipient(r: ParsedRecipient): NormalizedRecipient {
  if (r.kind === 'nif') return { name: r.name, nif: r.nif };
  return r.country === undefined
    ? { name: r.name, idType: r.idType, id: r.id }
    : { name: r.name, country: r.country, idType: r.idType, id: r.id };
}

function must<T>(value: Read<T>, field: string): T {
  if (value === undefined || value === null) throw new Error(`Validation passed without a usable ${field}`);
  return value;
}
