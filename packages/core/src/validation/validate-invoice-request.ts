import { isCorrectiveInvoiceType } from '../code-lists';
import { checkBrexitPrefixes, checkDates } from './date-rules';
import { explainWarning } from './explain-warning';
import { isJsonObject, present, rejectUnknownFields, type Read } from './field-readers';
import { checkIssuance, ISSUED_BY } from './issuance-rules';
import { REQUEST_FIELDS, type InvoiceRequest } from './invoice-request.generated';
import { checkInvoiceType, recipientPath } from './invoice-type-rules';
import { IssueCollector } from './issue-collector';
import { taxPointDate, type LineContext } from './line-context';
import { checkLine } from './line-rules';
import { readBreakdown } from './read-breakdown';
import { fieldReaders, shapeOf } from './read-field';
import { readInvoiceReferences } from './read-invoice-references';
import { readParty, readRecipients, type ParsedRecipient } from './read-recipient';
import { checkRegime } from './regime-rules';
import { checkTotals } from './totals-rules';
import type { Fields } from './request-fields';
import type { InvoiceValidationResult } from './types';
import { toNormalizedInvoice } from './to-normalized-invoice';

// The request as its schema describes it (invoice-request.generated.ts): each field's form, length, code list and
// presence, with the authority's numbers.
const SHAPE = shapeOf('InvoiceRequest');
const FIELD = fieldReaders(SHAPE);

/** The recipients and the third party, each with its path in the request. */
function partiesOf(parsed: {
  recipients: Read<ParsedRecipient[]>;
  thirdParty: Read<ParsedRecipient>;
}): { path: string; party: ParsedRecipient }[] {
  return [
    ...(parsed.recipients ?? []).map((party, i, all) => ({ path: recipientPath(all.length, i), party })),
    ...(parsed.thirdParty ? [{ path: 'third_party', party: parsed.thirdParty }] : []),
  ];
}

/**
 * Validates an invoice registration request (snake_case JSON, docs/api.md's `POST /invoices` plus what the
 * authority's records can carry) against the authority's rules, collecting every error and warning. `today` is
 * Madrid's date (madridToday()).
 */
export function validateInvoiceRequest(request: unknown, opts: { today: string }): InvoiceValidationResult {
  const issues = new IssueCollector();
  if (!isJsonObject(request)) {
    issues.error('', 'invalid_body', 'The request body must be a JSON object.');
    return { valid: false, errors: issues.errors, warnings: issues.warnings };
  }
  rejectUnknownFields(request, REQUEST_FIELDS.InvoiceRequest, '', issues);
  const body: Fields<InvoiceRequest> = request;
  // Each field read by its form and held to its presence in the schema, in the order the rules read them (their
  // errors' order).
  const need = <T>(value: Read<T>, key: keyof InvoiceRequest): Read<T> => present(value, SHAPE.required, '', key, issues);

  const invoiceType = FIELD.invoice_type(body.invoice_type, '', issues);
  const invoiceDate = FIELD.invoice_date(body.invoice_date, '', issues);
  const givenOperationDate = FIELD.operation_date(body.operation_date, '', issues);
  // TipoRectificativa: "I" when a corrective invoice leaves it out, so it is never missing (1114).
  const givenRectificationType = FIELD.rectification_type(body.rectification_type, '', issues);
  const corrective = invoiceType ? isCorrectiveInvoiceType(invoiceType) : false;
  const issuedByName = FIELD.issued_by(body.issued_by, '', issues);
  const parsed = {
    taxpayerId: FIELD.taxpayer_id(body.taxpayer_id, '', issues),
    computerSystemId: FIELD.computer_system_id(body.computer_system_id, '', issues),
    invoiceNumber: FIELD.invoice_number(body.invoice_number, '', issues),
    invoiceDate,
    invoiceType,
    description: FIELD.description(body.description, '', issues),
    // FechaOperacion is only written when it differs from the issue date.
    operationDate: givenOperationDate && givenOperationDate === invoiceDate ? undefined : givenOperationDate,
    recipients: readRecipients(body.recipient, body.recipients, issues),
    issuedBy: issuedByName ? ISSUED_BY[issuedByName] : issuedByName,
    thirdParty: need(readParty(body.third_party, 'third_party', 'third_party', issues), 'third_party'),
    simplifiedArt7273: FIELD.simplified_art_72_73(body.simplified_art_72_73, '', issues),
    withoutRecipientArt61d: FIELD.without_recipient_art_61d(body.without_recipient_art_61d, '', issues),
    coupon: FIELD.coupon(body.coupon, '', issues),
    rectificationType: corrective && givenRectificationType === undefined ? 'I' : givenRectificationType,
    rectifiedBaseAmount: FIELD.rectified_base_amount(body.rectified_base_amount, '', issues),
    rectifiedTaxAmount: FIELD.rectified_tax_amount(body.rectified_tax_amount, '', issues),
    rectifiedSurchargeAmount: FIELD.rectified_surcharge_amount(body.rectified_surcharge_amount, '', issues),
    correctedInvoices: need(readInvoiceReferences(body.corrected_invoices, 'corrected_invoices', issues), 'corrected_invoices'),
    substitutedInvoices: need(readInvoiceReferences(body.substituted_invoices, 'substituted_invoices', issues), 'substituted_invoices'),
    lines: need(readBreakdown(body.breakdown, issues), 'breakdown'),
    totalAmount: FIELD.total_amount(body.total_amount, '', issues),
    totalTaxAmount: FIELD.total_tax_amount(body.total_tax_amount, '', issues),
  };

  const ctx: LineContext = {
    invoiceType,
    rectificationType: parsed.rectificationType,
    invoiceDate,
    operationDate: parsed.operationDate,
    recipients: parsed.recipients,
    today: opts.today,
  };
  checkDates(ctx, parsed.lines, issues);
  checkBrexitPrefixes(partiesOf(parsed), taxPointDate(ctx), issues);
  for (const line of parsed.lines ?? []) {
    checkLine(line, ctx, issues);
    checkRegime(line, ctx, issues);
  }
  if (invoiceType) checkInvoiceType({ ...parsed, invoiceType }, issues);
  checkIssuance(parsed, issues);
  checkTotals(parsed, issues);

  const warnings = issues.warnings.map(explainWarning);
  if (issues.errors.length > 0) return { valid: false, errors: issues.errors, warnings };
  return { valid: true, invoice: toNormalizedInvoice(parsed), warnings };
}
