import type { InvoiceType, IssuedBy, TaxType } from '../registration-record';

/** One problem found in a request. `field` is a path such as `breakdown[0].tax_amount` ("" = the whole body). */
export interface ValidationIssue {
  field: string;
  /** Stable lower_snake identifier clients can branch on. */
  code: string;
  message: string;
  /** The authority's error code for the same rule, when it has one. */
  authority_code?: number;
  /**
   * On a warning the authority would store the record with (2000-2009): what it means and what to do, in plain words,
   * Spanish first.
   */
  explanation?: { es: string; en: string };
}

/** A breakdown line after validation: codes checked, amounts as two-decimal literals ("12.10", "21.00"). */
export interface NormalizedLine {
  taxType: TaxType;
  regimeType?: string;
  /** S1, S2, N1, N2 or E1..E8. */
  operationType: string;
  baseAmount: string;
  /** BaseImponibleACoste */
  costBaseAmount?: string;
  taxRate?: string;
  taxAmount?: string;
  surchargeRate?: string;
  surchargeAmount?: string;
}

/** A recipient or third party: a Spanish NIF, or a foreign identification (country absent only for an EU VAT number, 02). */
export type NormalizedRecipient = { name: string; nif: string } | { name: string; country?: string; idType: string; id: string };

export interface NormalizedReference {
  invoiceNumber: string;
  /** YYYY-MM-DD */
  invoiceDate: string;
}

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
  /** Destinatarios, in order; empty when the invoice identifies none. */
  recipients: NormalizedRecipient[];
  /** EmitidaPorTerceroODestinatario */
  issuedBy?: IssuedBy;
  /** Tercero */
  thirdParty?: NormalizedRecipient;
  /** FacturaSimplificadaArt7273 = S */
  simplifiedArt7273?: true;
  /** FacturaSinIdentifDestinatarioArt61d = S */
  withoutRecipientArt61d?: true;
  /** Cupon = S */
  coupon?: true;
  /** Set (default "I") for R1..R5 only. */
  rectificationType?: 'S' | 'I';
  rectifiedBaseAmount?: string;
  rectifiedTaxAmount?: string;
  /** CuotaRecargoRectificado */
  rectifiedSurchargeAmount?: string;
  correctedInvoices: NormalizedReference[];
  /** FacturasSustituidas (F3) */
  substitutedInvoices: NormalizedReference[];
  lines: NormalizedLine[];
  totalAmount: string;
  totalTaxAmount: string;
}

export type InvoiceValidationResult =
  | { valid: true; invoice: NormalizedInvoice; warnings: ValidationIssue[] }
  | { valid: false; errors: ValidationIssue[]; warnings: ValidationIssue[] };
