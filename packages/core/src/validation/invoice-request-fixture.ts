import { validateInvoiceRequest } from './validate-invoice-request';
import type { ValidationIssue } from './types';

/** Test support: a valid F1 request that each test bends in one direction. */
export const TODAY = '2026-11-22';

export function f1Request(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    taxpayer_id: '3F1C2A4E-8A0B-4C7E-9F51-1D2E3F4A5B6C',
    computer_system_id: '7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
    invoice_number: 'A-2026/0001',
    invoice_date: '2026-11-20',
    invoice_type: 'F1',
    description: 'Consulting services',
    recipient: { name: 'Cliente SL', nif: 'B85905495' },
    breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 }],
    total_amount: 121,
    total_tax_amount: 21,
    ...overrides,
  };
}

/** A single breakdown line merged into the fixture, with totals recomputed by the caller when needed. */
export function withLine(line: Record<string, unknown>, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return f1Request({ breakdown: [line], ...overrides });
}

/** "field:code" of every error, for compact assertions. */
export function errorsOf(body: unknown, today = TODAY): string[] {
  const result = validateInvoiceRequest(body, { today });
  return result.valid ? [] : result.errors.map((e) => `${e.field}:${e.code}`);
}

export function warningsOf(body: unknown, today = TODAY): string[] {
  return validateInvoiceRequest(body, { today }).warnings.map((w) => `${w.field}:${w.code}`);
}

/** The error on one field, to check its authority code and message. */
export function errorAt(body: unknown, field: string, today = TODAY): ValidationIssue | undefined {
  const result = validateInvoiceRequest(body, { today });
  return result.valid ? undefined : result.errors.find((e) => e.field === field);
}
