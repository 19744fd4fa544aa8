import { isCorrectiveInvoiceType } from '../code-lists';
import { checkBrexitPrefixes, checkDates } from './date-rules';
import { explainWarning } from './explain-warning';
import {
  isJsonObject,
  present,
  readAmount,
  readDate,
  readFlag,
  readListedCode,
  readText,
  readUuid,
  rejectUnknownFields,
  type Read,
} from './field-readers';
import { checkIssuance, ISSUED_BY } from './issuance-rules';
import {
  REQUEST_CODES,
  REQUEST_FIELDS,
  REQUEST_INVALID_CODES,
  REQUEST_MAX_CHARACTERS,
  REQUEST_REQUIRED,
  type InvoiceRequest,
} from './invoice-request.generated';
import { checkInvoiceType, recipientPath } from './invoice-type-rules';
import { IssueCollector } from './issue-collector';
import { taxPointDate, type LineContext } from './line-context';
import { checkLine } from './line-rules';
import { readBreakdown } from './read-breakdown';
import { readInvoiceNumber } from './read-invoice-number';
import { readInvoiceReferences } from './read-invoice-references';
import { readParty, readRecipients, type ParsedRecipient } from './read-recipient';
import { checkRegime } from './regime-rules';
import { checkTotals } from './totals-rules';
import type { Fields } from './request-fields';
import type { InvoiceValidationResult } from './types';
import { toNormalizedInvoice } from './to-normalized-invoice';

// The request's shape as its schema gives it (invoice-request.generated.ts): texts' lengths, required fields with the
// authority's number for leaving one out, code lists, and the authority's number for a value outside one.
const MAX_CHARACTERS = REQUEST_MAX_CHARACTERS.InvoiceRequest;
const REQUIRED = REQUEST_REQUIRED.InvoiceRequest;
const CODES = REQUEST_CODES.InvoiceRequest;
const INVALID = REQUEST_INVALID_CODES.InvoiceRequest;
const NUMBER_LENGTH = { maxLength: MAX_CHARACTERS.invoice_number, authorityCode: INVALID.invoice_number };

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
  // Each field held to its presence in the schema, in the order the rules read them (their errors' order).
  const need = <T>(value: Read<T>, key: keyof InvoiceRequest): Read<T> => present(value, REQUIRED, '', key, issues);

  const invoiceType = need(
    readListedCode(body.invoice_type, 'invoice_type', CODES.invoice_type, issues, INVALID.invoice_type),
    'invoice_type',
  );
  const invoiceDate = need(readDate(body.invoice_date, 'invoice_date', issues, 1105), 'invoice_date');
  const givenOperationDate = need(readDate(body.operation_date, 'operation_date', issues, 1145), 'operation_date');
  // TipoRectificativa: "I" when a corrective invoice leaves it out, so it is never missing (1114).
  const givenRectificationType = need(
    readListedCode(body.rectification_type, 'rectification_type', CODES.rectification_type, issues, INVALID.rectification_type),
    'rectification_type',
  );
  const corrective = invoiceType ? isCorrectiveInvoiceType(invoiceType) : false;
  const issuedByName = need(readListedCode(body.issued_by, 'issued_by', CODES.issued_by, issues, INVALID.issued_by), 'issued_by');
  const parsed = {
    taxpayerId: need(readUuid(body.taxpayer_id, 'taxpayer_id', issues), 'taxpayer_id'),
    computerSystemId: need(readUuid(body.computer_system_id, 'computer_system_id', issues), 'computer_system_id'),
    invoiceNumber: need(readInvoiceNumber(body.invoice_number, 'invoice_number', NUMBER_LENGTH, issues), 'invoice_number'),
    invoiceDate,
    invoiceType,
    description: need(readText(body.description, 'description', MAX_CHARACTERS.description, issues), 'description'),
    // FechaOperacion is only written when it differs from the issue date.
    operationDate: givenOperationDate && givenOperationDate === invoiceDate ? undefined : givenOperationDate,
    recipients: readRecipients(body.recipient, body.recipients, issues),
    issuedBy: issuedByName ? ISSUED_BY[issuedByName] : issuedByName,
    thirdParty: need(readParty(body.third_party, 'third_party', 'third_party', issues), 'third_party'),
    simplifiedArt7273: need(readFlag(body.simplified_art_72_73, 'simplified_art_72_73', issues, 1136), 'simplified_art_72_73'),
    withoutRecipientArt61d: need(
      readFlag(body.without_recipient_art_61d, 'without_recipient_art_61d', issues, 1184),
      'without_recipient_art_61d',
    ),
    coupon: need(readFlag(body.coupon, 'coupon', issues, 1157), 'coupon'),
    rectificationType: corrective && givenRectificationType === undefined ? 'I' : givenRectificationType,
    rectifiedBaseAmount: need(readAmount(body.rectified_base_amount, 'rectified_base_amount', issues), 'rectified_base_amount'),
    rectifiedTaxAmount: need(readAmount(body.rectified_tax_amount, 'rectified_tax_amount', issues), 'rectified_tax_amount'),
    rectifiedSurchargeAmount: need(
      readAmount(body.rectified_surcharge_amount, 'rectified_surcharge_amount', issues),
      'rectified_surcharge_amount',
    ),
    correctedInvoices: need(readInvoiceReferences(body.corrected_invoices, 'corrected_invoices', issues), 'corrected_invoices'),
    substitutedInvoices: need(readInvoiceReferences(body.substituted_invoices, 'substituted_invoices', issues), 'substituted_invoices'),
    lines: need(readBreakdown(body.breakdown, issues), 'breakdown'),
    totalAmount: need(readAmount(body.total_amount, 'total_amount', issues, 1267), 'total_amount'),
    totalTaxAmount: need(readAmount(body.total_tax_amount, 'total_tax_amount', issues, 1266), 'total_tax_amount'),
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
