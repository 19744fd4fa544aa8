import type { InvoiceType } from '../registration-record';

/** L2 TipoFactura. */
export const INVOICE_TYPES: Readonly<Record<InvoiceType, string>> = {
  F1: 'Invoice (arts. 6, 7.2 and 7.3 RD 1619/2012)',
  F2: 'Simplified invoice, or invoice without identified recipient (art. 6.1.d RD 1619/2012)',
  F3: 'Invoice replacing simplified invoices already issued and declared',
  R1: 'Corrective invoice (error founded in law and art. 80.1, 80.2 and 80.6 LIVA)',
  R2: 'Corrective invoice (art. 80.3 LIVA, insolvency proceedings)',
  R3: 'Corrective invoice (art. 80.4 LIVA, uncollectible debt)',
  R4: 'Corrective invoice (other causes)',
  R5: 'Corrective invoice of simplified invoices',
};

export const CORRECTIVE_INVOICE_TYPES: readonly InvoiceType[] = ['R1', 'R2', 'R3', 'R4', 'R5'];

export const NORMAL_INVOICE_TYPES: readonly InvoiceType[] = (Object.keys(INVOICE_TYPES) as InvoiceType[]).filter(
  (type) => !CORRECTIVE_INVOICE_TYPES.includes(type),
);

export function isInvoiceType(value: unknown): value is InvoiceType {
  return typeof value === 'string' && Object.hasOwn(INVOICE_TYPES, value);
}

export function isCorrectiveInvoiceType(type: InvoiceType): boolean {
  return CORRECTIVE_INVOICE_TYPES.includes(type);
}

/** Types that must identify a recipient (1189); F2 and R5 must not (1190). */
export function requiresRecipient(type: InvoiceType): boolean {
  return type !== 'F2' && type !== 'R5';
}
