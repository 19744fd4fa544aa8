import { invoices, type InvoiceReferenceJson, type RecipientJson } from '../schema';

/** The invoice columns that carry the validated request (besides scalars stored as they are). */
export interface StoredInvoiceContent {
  taxpayerId: string;
  computerSystemId: string;
  invoiceNumber: string;
  invoiceDate: string;
  invoiceType: string;
  description: string;
  operationDate: string | null;
  recipient: RecipientJson | null;
  additionalRecipients: RecipientJson[];
  issuedBy: 'D' | 'T' | null;
  thirdParty: RecipientJson | null;
  simplifiedArt7273: boolean;
  withoutRecipientArt61d: boolean;
  coupon: boolean;
  rectificationType: string | null;
  rectifiedBaseAmount: string | null;
  rectifiedTaxAmount: string | null;
  rectifiedSurchargeAmount: string | null;
  correctedInvoices: InvoiceReferenceJson[];
  substitutedInvoices: InvoiceReferenceJson[];
  totalAmount: string;
  totalTaxAmount: string;
}

/** The invoices' columns StoredInvoiceContent is read from, for a select's column map. */
export const STORED_INVOICE_CONTENT_COLUMNS = {
  taxpayerId: invoices.taxpayerId,
  computerSystemId: invoices.computerSystemId,
  invoiceNumber: invoices.invoiceNumber,
  invoiceDate: invoices.invoiceDate,
  invoiceType: invoices.invoiceType,
  description: invoices.description,
  operationDate: invoices.operationDate,
  recipient: invoices.recipient,
  additionalRecipients: invoices.additionalRecipients,
  issuedBy: invoices.issuedBy,
  thirdParty: invoices.thirdParty,
  simplifiedArt7273: invoices.simplifiedArt7273,
  withoutRecipientArt61d: invoices.withoutRecipientArt61d,
  coupon: invoices.coupon,
  rectificationType: invoices.rectificationType,
  rectifiedBaseAmount: invoices.rectifiedBaseAmount,
  rectifiedTaxAmount: invoices.rectifiedTaxAmount,
  rectifiedSurchargeAmount: invoices.rectifiedSurchargeAmount,
  correctedInvoices: invoices.correctedInvoices,
  substitutedInvoices: invoices.substitutedInvoices,
  totalAmount: invoices.totalAmount,
  totalTaxAmount: invoices.totalTaxAmount,
} satisfies Record<keyof StoredInvoiceContent, unknown>;

export interface StoredLine {
  taxType: string;
  regimeType: string | null;
  operationType: string;
  baseAmount: string;
  costBaseAmount: string | null;
  taxRate: string | null;
  taxAmount: string | null;
  surchargeRate: string | null;
  surchargeAmount: string | null;
}

/** A stored line's columns, whatever else the row holds. */
export function storedLineOf(l: StoredLine): StoredLine {
  return {
    taxType: l.taxType,
    regimeType: l.regimeType,
    operationType: l.operationType,
    baseAmount: l.baseAmount,
    costBaseAmount: l.costBaseAmount,
    taxRate: l.taxRate,
    taxAmount: l.taxAmount,
    surchargeRate: l.surchargeRate,
    surchargeAmount: l.surchargeAmount,
  };
}
