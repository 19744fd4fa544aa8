import { isJsonObject, rejectUnknownFields, WRONG_VALUE, type Read } from './field-readers';
import { REQUEST_FIELDS, REQUEST_LISTS, type InvoiceReferenceRequest } from './invoice-request.generated';
import type { IssueCollector } from './issue-collector';
import { fieldReaders, shapeOf } from './read-field';
import type { Fields } from './request-fields';

export interface ParsedReference {
  invoiceNumber: string;
  invoiceDate: string;
}

const FIELD = fieldReaders(shapeOf('InvoiceReferenceRequest'));
// FacturasRectificadas' and FacturasSustituidas' sizes and numbers are the schema's: a longer list breaks the block's
// limit (4113).
type ReferenceList = 'corrected_invoices' | 'substituted_invoices';

/**
 * corrected_invoices or substituted_invoices: each entry {invoice_number, invoice_date}, an invoice of the same issuer.
 * Whether the list is allowed at all is an invoice-type rule.
 */
export function readInvoiceReferences(value: unknown, field: ReferenceList, issues: IssueCollector): Read<ParsedReference[]> {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    issues.error(field, 'invalid_type', `${field} must be an array of {invoice_number, invoice_date}.`, WRONG_VALUE);
    return null;
  }
  const { max, tooMany } = REQUEST_LISTS.InvoiceRequest[field];
  if (value.length > max) {
    issues.error(field, 'too_many_items', `${field} can list at most ${max} invoices.`, tooMany);
    return null;
  }
  const references: ParsedReference[] = [];
  let usable = true;
  value.forEach((item, index) => {
    const path = `${field}[${index}]`;
    if (!isJsonObject(item)) {
      issues.error(path, 'invalid_type', `${path} must be an object with invoice_number and invoice_date.`, WRONG_VALUE);
      usable = false;
      return;
    }
    rejectUnknownFields(item, REQUEST_FIELDS.InvoiceReferenceRequest, path, issues);
    const entry: Fields<InvoiceReferenceRequest> = item;
    const invoiceNumber = FIELD.invoice_number(entry.invoice_number, path, issues);
    const invoiceDate = FIELD.invoice_date(entry.invoice_date, path, issues);
    if (invoiceNumber && invoiceDate) references.push({ invoiceNumber, invoiceDate });
    else usable = false;
  });
  return usable ? references : null;
}
