import { isCorrectiveInvoiceType, requiresRecipient } from '../code-lists';
import type { InvoiceType } from '../registration-record';
import type { Amount, Read } from './field-readers';
import type { IssueCollector } from './issue-collector';
import type { ParsedReference } from './read-invoice-references';
import type { ParsedRecipient } from './read-recipient';

export interface InvoiceTypeFacts {
  invoiceType: InvoiceType;
  invoiceNumber: Read<string>;
  invoiceDate: Read<string>;
  recipients: Read<ParsedRecipient[]>;
  rectificationType: Read<'S' | 'I'>;
  rectifiedBaseAmount: Read<Amount>;
  rectifiedTaxAmount: Read<Amount>;
  rectifiedSurchargeAmount: Read<Amount>;
  correctedInvoices: Read<ParsedReference[]>;
  substitutedInvoices: Read<ParsedReference[]>;
}

/**
 * What each invoice type requires or refuses (AEAT "Validaciones y errores" v1.2.0 §3.1.3.2 and §3.1.3.6): recipients,
 * rectification data, corrected and substituted invoices.
 */
export function checkInvoiceType(f: InvoiceTypeFacts, issues: IssueCollector): void {
  checkRecipientsForType(f, issues);
  if (isCorrectiveInvoiceType(f.invoiceType)) checkCorrective(f, issues);
  else checkNotCorrective(f, issues);
  if (f.substitutedInvoices !== undefined && f.invoiceType !== 'F3') {
    issues.error('substituted_invoices', 'not_allowed', 'substituted_invoices is only allowed on F3 invoices.', 1116);
  }
  f.substitutedInvoices?.forEach((ref, index) => warnAboutReference(f, ref, `substituted_invoices[${index}]`, 'substitutes', issues));
}

// Where several recipients are given, each is named by its place in `recipients`; a single one is `recipient`.
export function recipientPath(count: number, index: number): string {
  return count === 1 ? 'recipient' : `recipients[${index}]`;
}

function checkRecipientsForType(f: InvoiceTypeFacts, issues: IssueCollector): void {
  const type = f.invoiceType;
  if (requiresRecipient(type) && f.recipients === undefined) {
    issues.error('recipient', 'required', `recipient is required on ${type} invoices.`, 1189);
  } else if (!requiresRecipient(type) && f.recipients !== undefined) {
    issues.error('recipient', 'recipient_not_allowed', `${type} invoices do not identify a recipient; leave recipient out.`, 1190);
  }
  const recipients = f.recipients ?? [];
  recipients.forEach((r, index) => {
    if (r.kind === 'nif') return;
    const field = `${recipientPath(recipients.length, index)}.id_type`;
    // An EU VAT number identifies the recipient of an F1, F3 or R1 to R4 invoice only.
    if (r.idType === '02' && !requiresRecipient(type)) {
      issues.error(field, 'recipient_id_type_not_allowed', `${type} invoices cannot identify a recipient by EU VAT number (02).`, 1156);
    }
    // R3 takes a NIF, or a NIF missing from the census (07): a Spanish passport is refused as such (1233).
    if (type === 'R3' && r.idType !== '07') {
      const spanish = r.country === 'ES';
      issues.error(
        field,
        'recipient_id_type_not_allowed',
        spanish
          ? 'On R3 invoices a Spanish recipient without NIF is identified with id_type 07 (not in the census) only.'
          : 'R3 invoices identify the recipient by Spanish NIF or id_type 07 only.',
        spanish ? 1233 : 1191,
      );
    }
    if (type === 'R2' && r.idType !== '07' && r.idType !== '02') {
      issues.error(
        field,
        'recipient_id_type_not_allowed',
        'R2 invoices identify the recipient by Spanish NIF, id_type 02 or id_type 07 only.',
        1192,
      );
    }
  });
}

function checkCorrective(f: InvoiceTypeFacts, issues: IssueCollector): void {
  if (f.rectificationType === 'S') {
    if (f.rectifiedBaseAmount === undefined)
      issues.error(
        'rectified_base_amount',
        'required',
        'rectified_base_amount is required when rectification_type is S (substitution).',
        1118,
      );
    if (f.rectifiedTaxAmount === undefined)
      issues.error(
        'rectified_tax_amount',
        'required',
        'rectified_tax_amount is required when rectification_type is S (substitution).',
        1118,
      );
  } else if (f.rectificationType === 'I') {
    const why = 'only allowed when rectification_type is S (substitution)';
    refuse(f.rectifiedBaseAmount, 'rectified_base_amount', why, issues, 1119);
    refuse(f.rectifiedTaxAmount, 'rectified_tax_amount', why, issues, 1119);
    refuse(f.rectifiedSurchargeAmount, 'rectified_surcharge_amount', why, issues, 1119);
  }
  const refs = f.correctedInvoices;
  // The contract's own requirement (the authority would take an R invoice without FacturasRectificadas).
  if (refs === undefined || (refs && refs.length === 0)) {
    issues.error('corrected_invoices', 'required', `corrected_invoices must list the invoices a ${f.invoiceType} invoice corrects.`);
  }
  refs?.forEach((ref, index) => warnAboutReference(f, ref, `corrected_invoices[${index}]`, 'corrects', issues));
}

// The authority has no rule on the dates or numbers a reference may carry: what looks like a slip is only pointed out.
function warnAboutReference(f: InvoiceTypeFacts, ref: ParsedReference, path: string, verb: string, issues: IssueCollector): void {
  if (f.invoiceDate && ref.invoiceDate > f.invoiceDate) {
    issues.warning(
      `${path}.invoice_date`,
      'referenced_invoice_after_invoice',
      `This invoice (${f.invoiceDate}) ${verb} an invoice dated later (${ref.invoiceDate}); check the dates.`,
    );
  }
  if (ref.invoiceNumber === f.invoiceNumber && ref.invoiceDate === f.invoiceDate) {
    issues.warning(path, 'references_itself', `This invoice ${verb} itself; check the number and date.`);
  }
}

function checkNotCorrective(f: InvoiceTypeFacts, issues: IssueCollector): void {
  const why = 'only allowed on corrective invoices (R1 to R5)';
  refuse(f.rectificationType, 'rectification_type', why, issues, 1115);
  refuse(f.rectifiedBaseAmount, 'rectified_base_amount', why, issues, 1119);
  refuse(f.rectifiedTaxAmount, 'rectified_tax_amount', why, issues, 1119);
  refuse(f.rectifiedSurchargeAmount, 'rectified_surcharge_amount', why, issues, 1119);
  refuse(f.correctedInvoices, 'corrected_invoices', why, issues, 1117);
}

function refuse(value: unknown, field: string, why: string, issues: IssueCollector, authorityCode: number): void {
  if (value !== undefined) issues.error(field, 'not_allowed', `${field} is ${why}.`, authorityCode);
}
