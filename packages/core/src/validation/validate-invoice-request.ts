import { isInvoiceType, isCorrectiveInvoiceType } from '../code-lists';
import { checkBrexitPrefixes, checkDates } from './date-rules';
import { explainWarning } from './explain-warning';
import {
  isJsonObject,
  MISSING,
  readAmount,
  readCode,
  readDate,
  readFlag,
  readText,
  readUuid,
  rejectUnknownFields,
  required,
  type Read,
} from './field-readers';
import { checkIssuance, ISSUED_BY, isIssuedByName } from './issuance-rules';
import { REQUEST_FIELDS, REQUEST_MAX_CHARACTERS, type InvoiceRequest } from './invoice-request.generated';
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

const MAX_CHARACTERS = REQUEST_MAX_CHARACTERS.InvoiceRequest;

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

const isRectificationType = (v: unknown): v is 'S' | 'I' => v === 'S' || v === 'I';

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

  const invoiceType = required(
    readCode(body.invoice_type, 'invoice_type', isInvoiceType, 'F1, F2, F3, R1, R2, R3, R4 or R5', issues, 1106),
    'invoice_type',
    issues,
    MISSING,
  );
  const invoiceDate = required(readDate(body.invoice_date, 'invoice_date', issues, 1105), 'invoice_date', issues, MISSING);
  const givenOperationDate = readDate(body.operation_date, 'operation_date', issues, 1145);
  // TipoRectificativa: "I" when a corrective invoice leaves it out, so it is never missing (1114).
  const givenRectificationType = readCode(
    body.rectification_type,
    'rectification_type',
    isRectificationType,
    'S (substitution) or I (differences)',
    issues,
    1107,
  );
  const corrective = invoiceType ? isCorrectiveInvoiceType(invoiceType) : false;
  const issuedByName = readCode(body.issued_by, 'issued_by', isIssuedByName, 'recipient or third_party', issues, 1151);
  const parsed = {
    taxpayerId: required(readUuid(body.taxpayer_id, 'taxpayer_id', issues), 'taxpayer_id', issues),
    computerSystemId: required(readUuid(body.computer_system_id, 'computer_system_id', issues), 'computer_system_id', issues),
    invoiceNumber: required(readInvoiceNumber(body.invoice_number, 'invoice_number', issues), 'invoice_number', issues, MISSING),
    invoiceDate,
    invoiceType,
    description: required(readText(body.description, 'description', MAX_CHARACTERS.description, issues), 'description', issues, MISSING),
    // FechaOperacion is only written when it differs from the issue date.
    operationDate: givenOperationDate && givenOperationDate === invoiceDate ? undefined : givenOperationDate,
    recipients: readRecipients(body.recipient, body.recipients, issues),
    issuedBy: issuedByName ? ISSUED_BY[issuedByName] : issuedByName,
    thirdParty: readParty(body.third_party, 'third_party', 'third_party', issues),
    simplifiedArt7273: readFlag(body.simplified_art_72_73, 'simplified_art_72_73', issues, 1136),
    withoutRecipientArt61d: readFlag(body.without_recipient_art_61d, 'without_recipient_art_61d', issues, 1184),
    coupon: readFlag(body.coupon, 'coupon', issues, 1157),
    rectificationType: corrective && givenRectificationType === undefined ? 'I' : givenRectificationType,
    rectifiedBaseAmount: readAmount(body.rectified_base_amount, 'rectified_base_amount', issues),
    rectifiedTaxAmount: readAmount(body.rectified_tax_amount, 'rectified_tax_amount', issues),
    rectifiedSurchargeAmount: readAmount(body.rectified_surcharge_amount, 'rectified_surcharge_amount', issues),
    correctedInvoices: readInvoiceReferences(body.corrected_invoices, 'corrected_invoices', issues),
    substitutedInvoices: readInvoiceReferences(body.substituted_invoices, 'substituted_invoices', issues),
    lines: required(readBreakdown(body.breakdown, issues), 'breakdown', issues, MISSING),
    totalAmount: required(readAmount(body.total_amount, 'total_amount', issues, 1267), 'total_amount', issues, MISSING),
    totalTaxAmount: required(readAmount(body.total_tax_amount, 'total_tax_amount', issues, 1266), 'total_tax_amount', issues, MISSING),
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
