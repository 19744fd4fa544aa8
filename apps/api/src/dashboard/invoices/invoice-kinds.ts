export type InvoiceSection = 'invoices' | 'corrective';

export const NORMAL_TYPES = ['F1', 'F2', 'F3'] as const;
export const CORRECTIVE_TYPES = ['R1', 'R2', 'R3', 'R4', 'R5'] as const;

export const TYPE_LABELS: Record<string, string> = {
  F1: 'F1 · Invoice',
  F2: 'F2 · Simplified invoice',
  F3: 'F3 · Invoice replacing simplified ones',
  R1: 'R1 · Correction, art. 80.1, 80.2, 80.6',
  R2: 'R2 · Correction, insolvency (art. 80.3)',
  R3: 'R3 · Correction, bad debt (art. 80.4)',
  R4: 'R4 · Correction, other causes',
  R5: 'R5 · Correction of simplified invoices',
};

export function sectionOf(invoiceType: string): InvoiceSection {
  return invoiceType.startsWith('R') ? 'corrective' : 'invoices';
}

export const SECTION_PATHS: Record<InvoiceSection, string> = { invoices: '/app/invoices', corrective: '/app/corrective-invoices' };
