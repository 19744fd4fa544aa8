import type { InvoiceType, TaxType } from '../registration-record';

/** One problem found in a request. `field` is a path such as `breakdown[0].tax_amount` ("" = the whole body). */
export interface ValidationIssue {
  field: string;
  /** Stable lower_snake identifier clients can branch on. */
  code: string;
  message: string;
  /** The authority's error code for the same rule, when it has one. */
  authority_code?: number;
}

/** A breakdown line after validation: codes checked, amounts as two-decimal literals ("12.10", "21.00"). */
export interface NormalizedLine {
  taxType: TaxType;
  regimeType?: string;
  /** S1, S2, N1, N2 or E1..E8. */
  operationType: string;
  baseAmount: string;
  taxRate?: string;
  taxAmount?: string;
  surchargeRate?: string;
  surchargeAmount?: string;
}

export type NormalizedRecipient = { name: string; nif: string } | { name: string; country: string; idType: string; id: string };

/** An invoice request that passed validation: trimmed text, normalised NIFs, two-decimal amount literals. */
export interface NormalizedInvoice {
  taxpayerId: string;
  computerSystemId: string;
  invoiceNumber: string;
  /** YYYY-MM-DD */
  invoiceDate: string;
  invoiceType: InvoiceType;
  description: string;
  /** YYYY-MM-DD, only when it differs from invoiceDate. */
  operationDate?: string;
  recipient?: NormalizedRecipient;
  /** Set (default "I") for R1..R5 only. */
  rectificationType?: 'S' | 'I';
  rectifiedBaseAmount?: string;
  rectifiedTaxAmount?: string;
  correctedInvoices: { invoiceNumber: string; /** YYYY-MM-DD */ invoiceDate: string }[];
  lines: NormalizedLine[];
  totalAmount: string;
  totalTaxAmount: string;
}

export type InvoiceValidationResult =
  | { valid: true; invoice: NormalizedInvoice; warnings: ValidationIssue[] }
  | { valid: false; errors: ValidationIssue[]; warnings: ValidationIssue[] };
