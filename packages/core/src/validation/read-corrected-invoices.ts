import { isJsonObject, readDate, rejectUnknownFields, required, type Read } from './field-readers';
import type { IssueCollector } from './issue-collector';
import { readInvoiceNumber } from './read-invoice-number';

export interface ParsedReference {
  invoiceNumber: string;
  invoiceDate: string;
}

// FacturasRectificadas holds at most 1000 IDFacturaRectificada.
const MAX_REFERENCES = 1000;

/** corrected_invoices: each entry {invoice_number, invoice_date}. Whether the list is allowed at all is an invoice-type rule. */
export function readCorrectedInvoices(value: unknown, issues: IssueCollector): Read<ParsedReference[]> {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    issues.error('corrected_invoices', 'invalid_type', 'corrected_invoices must be an array of {invoice_number, invoice_date}.');
    return null;
  }
  if (value.length > MAX_REFERENCES) {
    issues.error('corrected_invoices', 'too_many_items', `corrected_invoices can list at most ${MAX_REFERENCES} invoices.`);
    return null;
  }
  const references: ParsedReference[] = [];
  let usable = true;
  value.forEach((entry, index) => {
    const path = `corrected_invoices[${index}]`;
    if (!isJsonObject(entry)) {
      issues.error(path, 'invalid_type', `${path} must be an object with invoice_number and invoice_date.`);
      usable = false;
      return;
    }
    rejectUnknownFields(entry, ['invoice_number', 'invoice_date'], path, issues);
    const invoiceNumber = required(
      readInvoiceNumber(entry.invoice_number, `${path}.invoice_number`, issues),
      `${path}.invoice_number`,
      issues,
    );
    const invoiceDate = required(readDate(entry.invoice_date, `${path}.invoice_date`, issues), `${path}.invoice_date`, issues);
    if (invoiceNumber && invoiceDate) references.push({ invoiceNumber, invoiceDate });
    else usable = false;
  });
  return usable ? references : null;
}
