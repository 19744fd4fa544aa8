import { validateInvoiceRequest } from './validate-invoice-request';
import type { ValidationIssue } from './types';

/** Test support: the validation's answer to a body, in compact forms. `TODAY` is two days after the fixture's date. */
export const TODAY = '2026-11-22';

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
