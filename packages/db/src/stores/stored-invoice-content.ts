import type { InvoiceReferenceJson, RecipientJson } from '../schema';

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
