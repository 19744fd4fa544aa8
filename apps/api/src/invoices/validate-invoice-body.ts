import { validateInvoiceRequest, type NormalizedInvoice, type ValidationIssue } from '@vf/core';
import { ApiError, type FieldIssue } from '../errors/api-error';
import { shapeIssuesBeyond } from '../http/shape-issues-beyond';
import { invoiceRequestSchema } from './invoice-request-schema';

const NONE: readonly FieldIssue[] = [];

export interface ValidInvoiceBody {
  invoice: NormalizedInvoice;
  warnings: ValidationIssue[];
}

/**
 * What an invoice body must satisfy on its own, in one pass: the authority's rules (@vf/core, with the authority's
 * codes) and the documented request shape (the schema the OpenAPI document shows), every problem of both in one
 * 422. No I/O; the rules that need the issuing taxpayer are checked once it is read.
 */
export function validateInvoiceBody(body: unknown, today: string): ValidInvoiceBody {
  const rules = validateInvoiceRequest(body, { today });
  const shape = shapeIssuesBeyond(invoiceRequestSchema, body, rules.valid ? NONE : rules.errors);
  if (!rules.valid) {
    throw new ApiError('validation_failed', 'The invoice is not valid; nothing was registered. See errors.', {
      errors: [...rules.errors, ...shape],
      extensions: { warnings: rules.warnings },
    });
  }
  if (shape.length > 0) throw ApiError.validation(shape, 'The invoice does not have the documented request shape; see errors.');
  return { invoice: rules.invoice, warnings: rules.warnings };
}
