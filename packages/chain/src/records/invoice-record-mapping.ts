import type { InvoiceType, NormalizedInvoice, NormalizedRecipient, NormalizedReference, TaxType } from '@vf/core';
import type { InvoiceReferenceJson, RecipientJson, StoredInvoiceContent, StoredLine } from '@vf/db';

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
