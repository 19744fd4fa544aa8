import { MAX_RECORD_LIST_ENTRIES } from '../record/message-limits';
import { isJsonObject, MISSING, readDate, rejectUnknownFields, required, WRONG_VALUE, type Read } from './field-readers';
import { REQUEST_FIELDS, type InvoiceReferenceRequest } from './invoice-request.generated';
import type { IssueCollector } from './issue-collector';
import type { Fields } from './request-fields';
import { readInvoiceNumber } from './read-invoice-number';

export interface ParsedReference {
  invoiceNumber: string;
  invoiceDate: string;
}

// Longer FacturasRectificadas or FacturasSustituidas break the block's limit (4113).
const MAX_REFERENCES = MAX_RECORD_LIST_ENTRIES;

/**
 * corrected_invoices or substituted_invoices: each entry {invoice_number, invoice_date}, an invoice of the same issuer.
 * Whether the list is allowed at all is an invoice-type rule.
 */
export function readInvoiceReferences(value: unknown, field: string, issues: IssueCollector): Read<ParsedReference[]> {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    issues.error(field, 'invalid_type', `${field} must be an array of {invoice_number, invoice_date}.`, WRONG_VALUE);
    return null;
  }
  if (value.length > MAX_REFERENCES) {
    issues.error(field, 'too_many_items', `${field} can list at most ${MAX_REFERENCES} invoices.`, 4113);
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
    const invoiceNumber = required(
      readInvoiceNumber(entry.invoice_number, `${path}.invoice_number`, issues),
      `${path}.invoice_number`,
      issues,
      MISSING,
    );
    const invoiceDate = required(
      readDate(entry.invoice_date, `${path}.invoice_date`, issues, 1105),
      `${path}.invoice_date`,
      issues,
      MISSING,
    );
    if (invoiceNumber && invoiceDate) references.push({ invoiceNumber, invoiceDate });
    else usable = false;
  });
  return usable ? references : null;
}
