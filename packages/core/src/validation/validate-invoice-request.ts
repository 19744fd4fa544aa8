import { isInvoiceType, isCorrectiveInvoiceType } from '../code-lists';
import { checkDates } from './date-rules';
import { isJsonObject, readAmount, readCode, readDate, readText, readUuid, rejectUnknownFields, required } from './field-readers';
import { checkInvoiceType } from './invoice-type-rules';
import { IssueCollector } from './issue-collector';
import type { LineContext } from './line-context';
import { checkLine } from './line-rules';
import { readBreakdown } from './read-breakdown';
import { readCorrectedInvoices } from './read-corrected-invoices';
import { readInvoiceNumber } from './read-invoice-number';
import { readRecipient } from './read-recipient';
import { checkRegime } from './regime-rules';
import { checkTotals } from './totals-rules';
import type { InvoiceValidationResult } from './types';
import { toNormalizedInvoice } from './to-normalized-invoice';

const FIELDS = [
  'taxpayer_id',
  'computer_system_id',
  'invoice_number',
  'invoice_date',
  'invoice_type',
  'description',
  'operation_date',
  'recipient',
  'rectification_type',
  'rectified_base_amount',
  'rectified_tax_amount',
  'corrected_invoices',
  'breakdown',
  'total_amount',
  'total_tax_amount',
];

const isRectificationType = (v: unknown): v is 'S' | 'I' => v === 'S' || v === 'I';

/**
 * Validates an invoice registration request (snake_case JSON, API contract §2.4) against the
 * authority's rules, collecting every error and warning. `today` is Madrid's date (madridToday()).
 */
export function validateInvoiceRequest(body: unknown, opts: { today: string }): InvoiceValidationResult {
  const issues = new IssueCollector();
  if (!isJsonObject(body)) {
    issues.error('', 'invalid_body', 'The request body must be a JSON object.');
    return { valid: false, errors: issues.errors, warnings: issues.warnings };
  }
  rejectUnknownFields(body, FIELDS, '', issues);

  const invoiceType = required(
    readCode(body.invoice_type, 'invoice_type', isInvoiceType, 'F1, F2, F3, R1, R2, R3, R4 or R5', issues, 1106),
    'invoice_type',
    issues,
  );
  const invoiceDate = required(readDate(body.invoice_date, 'invoice_date', issues, 1105), 'invoice_date', issues);
  const givenOperationDate = readDate(body.operation_date, 'operation_date', issues);
  const givenRectificationType = readCode(
    body.rectification_type,
    'rectification_type',
    isRectificationType,
    'S (substitution) or I (differences)',
    issues,
    1107,
  );
  const corrective = invoiceType ? isCorrectiveInvoiceType(invoiceType) : false;
  const parsed = {
    taxpayerId: required(readUuid(body.taxpayer_id, 'taxpayer_id', issues), 'taxpayer_id', issues),
    computerSystemId: required(readUuid(body.computer_system_id, 'computer_system_id', issues), 'computer_system_id', issues),
    invoiceNumber: required(readInvoiceNumber(body.invoice_number, 'invoice_number', issues), 'invoice_number', issues),
    invoiceDate,
    invoiceType,
    description: required(readText(body.description, 'description', 500, issues), 'description', issues),
    // FechaOperacion is only written when it differs from the issue date.
    operationDate: givenOperationDate && givenOperationDate === invoiceDate ? undefined : givenOperationDate,
    recipient: readRecipient(body.recipient, issues),
    rectificationType: corrective && givenRectificationType === undefined ? 'I' : givenRectificationType,
    rectifiedBaseAmount: readAmount(body.rectified_base_amount, 'rectified_base_amount', issues),
    rectifiedTaxAmount: readAmount(body.rectified_tax_amount, 'rectified_tax_amount', issues),
    correctedInvoices: readCorrectedInvoices(body.corrected_invoices, issues),
    lines: required(readBreakdown(body.breakdown, issues), 'breakdown', issues),
    totalAmount: required(readAmount(body.total_amount, 'total_amount', issues), 'total_amount', issues),
    totalTaxAmount: required(readAmount(body.total_tax_amount, 'total_tax_amount', issues), 'total_tax_amount', issues),
  };

  const ctx: LineContext = {
    invoiceType,
    rectificationType: parsed.rectificationType,
    invoiceDate,
    operationDate: parsed.operationDate,
    recipient: parsed.recipient,
    today: opts.today,
  };
  checkDates(ctx, parsed.lines, issues);
  for (const line of parsed.lines ?? []) {
    checkLine(line, ctx, issues);
    checkRegime(line, ctx, issues);
  }
  if (invoiceType) checkInvoiceType({ ...parsed, invoiceType }, issues);
  checkTotals(parsed, issues);

  if (issues.errors.length > 0) return { valid: false, errors: issues.errors, warnings: issues.warnings };
  return { valid: true, invoice: toNormalizedInvoice(parsed), warnings: issues.warnings };
}
