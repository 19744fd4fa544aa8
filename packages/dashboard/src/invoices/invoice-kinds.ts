import { CORRECTIVE_INVOICE_TYPES, NORMAL_INVOICE_TYPES } from '@vf/core';
import { t } from '../i18n/i18n';

export type InvoiceSection = 'invoices' | 'corrective';

export const NORMAL_TYPES = NORMAL_INVOICE_TYPES;
export const CORRECTIVE_TYPES = CORRECTIVE_INVOICE_TYPES;

/** "F1 · Factura": the type's code and what it means, in the request's language. */
export function typeLabel(invoiceType: string): string {
  return [...NORMAL_TYPES, ...CORRECTIVE_TYPES].includes(invoiceType as never) ? t(`types.${invoiceType}`) : invoiceType;
}

export function sectionOf(invoiceType: string): InvoiceSection {
  return invoiceType.startsWith('R') ? 'corrective' : 'invoices';
}

export const SECTION_PATHS: Record<InvoiceSection, string> = { invoices: '/app/invoices', corrective: '/app/corrective-invoices' };
