import type { InvoiceType, NormalizedInvoice, TaxType } from '@vf/core';
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
  rectificationType: string | null;
  rectifiedBaseAmount: string | null;
  rectifiedTaxAmount: string | null;
  correctedInvoices: InvoiceReferenceJson[];
  totalAmount: string;
  totalTaxAmount: string;
}

export interface StoredLine {
  taxType: string;
  regimeType: string | null;
  operationType: string;
  baseAmount: string;
  taxRate: string | null;
  taxAmount: string | null;
  surchargeRate: string | null;
  surchargeAmount: string | null;
}

/**
 * Both directions between a validated invoice and its rows live here, side by side: the API stores with
 * `toStoredInvoice`, the worker rebuilds with `toNormalizedInvoice`, and the round trip must give back the
 * very values that were hashed.
 */
export function toStoredInvoice(invoice: NormalizedInvoice): { content: StoredInvoiceContent; lines: StoredLine[] } {
  const r = invoice.recipient;
  return {
    content: {
      taxpayerId: invoice.taxpayerId,
      computerSystemId: invoice.computerSystemId,
      invoiceNumber: invoice.invoiceNumber,
      invoiceDate: invoice.invoiceDate,
      invoiceType: invoice.invoiceType,
      description: invoice.description,
      operationDate: invoice.operationDate ?? null,
      recipient: r ? ('nif' in r ? { name: r.name, nif: r.nif } : { name: r.name, country: r.country, id_type: r.idType, id: r.id }) : null,
      rectificationType: invoice.rectificationType ?? null,
      rectifiedBaseAmount: invoice.rectifiedBaseAmount ?? null,
      rectifiedTaxAmount: invoice.rectifiedTaxAmount ?? null,
      correctedInvoices: invoice.correctedInvoices.map((c) => ({ invoice_number: c.invoiceNumber, invoice_date: c.invoiceDate })),
      totalAmount: invoice.totalAmount,
      totalTaxAmount: invoice.totalTaxAmount,
    },
    lines: invoice.lines.map((l) => ({
      taxType: l.taxType,
      regimeType: l.regimeType ?? null,
      operationType: l.operationType,
      baseAmount: l.baseAmount,
      taxRate: l.taxRate ?? null,
      taxAmount: l.taxAmount ?? null,
      surchargeRate: l.surchargeRate ?? null,
      surchargeAmount: l.surchargeAmount ?? null,
    })),
  };
}

export function toNormalizedInvoice(row: StoredInvoiceContent, lines: StoredLine[]): NormalizedInvoice {
  const r = row.recipient;
  return {
    taxpayerId: row.taxpayerId,
    computerSystemId: row.computerSystemId,
    invoiceNumber: row.invoiceNumber,
    invoiceDate: row.invoiceDate,
    invoiceType: row.invoiceType as InvoiceType,
    description: row.description,
    operationDate: row.operationDate ?? undefined,
    recipient: r
      ? 'nif' in r
        ? { name: r.name, nif: r.nif }
        : { name: r.name, country: r.country, idType: r.id_type, id: r.id }
      : undefined,
    rectificationType: (row.rectificationType as 'S' | 'I' | null) ?? undefined,
    rectifiedBaseAmount: row.rectifiedBaseAmount ?? undefined,
    rectifiedTaxAmount: row.rectifiedTaxAmount ?? undefined,
    correctedInvoices: row.correctedInvoices.map((c) => ({ invoiceNumber: c.invoice_number, invoiceDate: c.invoice_date })),
    lines: lines.map((l) => ({
      taxType: l.taxType as TaxType,
      regimeType: l.regimeType ?? undefined,
      operationType: l.operationType,
      baseAmount: l.baseAmount,
      taxRate: l.taxRate ?? undefined,
      taxAmount: l.taxAmount ?? undefined,
      surchargeRate: l.surchargeRate ?? undefined,
      surchargeAmount: l.surchargeAmount ?? undefined,
    })),
    totalAmount: row.totalAmount,
    totalTaxAmount: row.totalTaxAmount,
  };
}
