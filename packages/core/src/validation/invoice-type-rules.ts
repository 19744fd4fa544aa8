import { isCorrectiveInvoiceType, requiresRecipient } from '../code-lists';
import type { InvoiceType } from '../registration-record';
import type { Amount, Read } from './field-readers';
import type { IssueCollector } from './issue-collector';
import type { ParsedReference } from './read-corrected-invoices';
import type { ParsedRecipient } from './read-recipient';

export interface InvoiceTypeFacts {
  invoiceType: InvoiceType;
  invoiceNumber: Read<string>;
  invoiceDate: Read<string>;
  recipient: Read<ParsedRecipient>;
  rectificationType: Read<'S' | 'I'>;
  rectifiedBaseAmount: Read<Amount>;
  rectifiedTaxAmount: Read<Amount>;
  correctedInvoices: Read<ParsedReference[]>;
}

/** What each invoice type requires or refuses: recipient, rectification data, corrected invoices. */
export function checkInvoiceType(f: InvoiceTypeFacts, issues: IssueCollector): void {
  checkRecipientForType(f, issues);
  if (isCorrectiveInvoiceType(f.invoiceType)) checkCorrective(f, issues);
  else checkNotCorrective(f, issues);
}

function checkRecipientForType(f: InvoiceTypeFacts, issues: IssueCollector): void {
  const type = f.invoiceType;
  if (requiresRecipient(type) && f.recipient === undefined) {
    issues.error('recipient', 'required', `recipient is required on ${type} invoices.`, 1189);
  } else if (!requiresRecipient(type) && f.recipient !== undefined) {
    issues.error('recipient', 'recipient_not_allowed', `${type} invoices do not identify a recipient; leave recipient out.`, 1190);
  }
  const r = f.recipient;
  if (!r || r.kind === 'nif') return;
  if (type === 'R3' && r.idType !== '07') {
    issues.error(
      'recipient.id_type',
      'recipient_id_type_not_allowed',
      'R3 invoices identify the recipient by Spanish NIF or id_type 07 only.',
      1191,
    );
  }
  if (type === 'R2' && r.idType !== '07' && r.idType !== '02') {
    issues.error(
      'recipient.id_type',
      'recipient_id_type_not_allowed',
      'R2 invoices identify the recipient by Spanish NIF, id_type 02 or id_type 07 only.',
      1192,
    );
  }
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
    refuse(f.rectifiedBaseAmount, 'rectified_base_amount', 'only allowed when rectification_type is S (substitution)', issues, 1119);
    refuse(f.rectifiedTaxAmount, 'rectified_tax_amount', 'only allowed when rectification_type is S (substitution)', issues, 1119);
  }
  const refs = f.correctedInvoices;
  if (refs === undefined || (refs && refs.length === 0)) {
    issues.error('corrected_invoices', 'required', `corrected_invoices must list the invoices a ${f.invoiceType} invoice corrects.`);
  }
  refs?.forEach((ref, index) => {
    const path = `corrected_invoices[${index}]`;
    if (f.invoiceDate && ref.invoiceDate > f.invoiceDate) {
      issues.error(
        `${path}.invoice_date`,
        'corrected_invoice_after_invoice',
        `A corrected invoice cannot be dated after the corrective invoice (${f.invoiceDate}).`,
      );
    }
    if (ref.invoiceNumber === f.invoiceNumber && ref.invoiceDate === f.invoiceDate) {
      issues.error(path, 'corrects_itself', 'An invoice cannot correct itself.');
    }
  });
}

function checkNotCorrective(f: InvoiceTypeFacts, issues: IssueCollector): void {
  const why = 'only allowed on corrective invoices (R1 to R5)';
  refuse(f.rectificationType, 'rectification_type', why, issues, 1115);
  refuse(f.rectifiedBaseAmount, 'rectified_base_amount', why, issues, 1119);
  refuse(f.rectifiedTaxAmount, 'rectified_tax_amount', why, issues, 1119);
  refuse(f.correctedInvoices, 'corrected_invoices', why, issues, 1117);
}

function refuse(value: unknown, field: string, why: string, issues: IssueCollector, authorityCode: number): void {
  if (value !== undefined) issues.error(field, 'not_allowed', `${field} is ${why}.`, authorityCode);
}
