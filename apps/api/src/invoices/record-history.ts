import type { NormalizedInvoice, RecordHistoryEntry } from '@vf/core';
import type { AppendContext, InvoiceRow } from '@vf/db';
import { ApiError, type FieldIssue } from '../errors/api-error';

export const invoiceNotFound = () => new ApiError('invoice_not_found', 'No invoice with this id in your account.');

export const historyEntry = (r: InvoiceRow): RecordHistoryEntry => ({ recordType: r.recordType, status: r.authorityStatus });

/** A correction may change anything but what identifies the invoice at the authority (IDFactura) and its taxpayer. */
export function identityChanges(original: InvoiceRow, corrected: NormalizedInvoice): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (corrected.taxpayerId !== original.taxpayerId)
    issues.push({ field: 'taxpayer_id', code: 'cannot_change', message: "must be the invoice's taxpayer" });
  if (corrected.invoiceNumber !== original.invoiceNumber) {
    issues.push({ field: 'invoice_number', code: 'cannot_change', message: `must stay ${original.invoiceNumber}` });
  }
  if (corrected.invoiceDate !== original.invoiceDate)
    issues.push({ field: 'invoice_date', code: 'cannot_change', message: `must stay ${original.invoiceDate}` });
  return issues;
}

/**
 * New records of an invoice go to the chain it lives in. After the taxpayer switched environment that chain is no
 * longer the one being appended to, and the other environment's authority registry has never seen the invoice.
 */
export function assertInCurrentChain(original: InvoiceRow, ctx: AppendContext): void {
  if (original.chainId === ctx.chain.id) return;
  const here = ctx.taxpayer.isProduction ? 'production' : 'sandbox';
  throw new ApiError(
    'invoice_in_other_environment',
    `The invoice was registered in the ${original.isProduction ? 'production' : 'sandbox'} environment and the taxpayer now registers in ${here}; it can no longer be corrected or cancelled here.`,
  );
}

/** The flags of the next record depend on the authority's answer to every earlier one, so it waits for them. */
export function awaitingAuthority(records: InvoiceRow[]): ApiError {
  const waiting = records.filter((r) => !['accepted', 'accepted_with_warnings', 'rejected'].includes(r.authorityStatus));
  const inError = waiting.some((r) => r.authorityStatus === 'error');
  const list = waiting.map((r) => `record ${r.chainSeq} (${r.recordType}) is ${r.authorityStatus}`).join('; ');
  return new ApiError(
    'invoice_awaiting_authority',
    `A record of this invoice has no answer from the authority yet (${list}); which correction or cancellation it needs depends on that answer. ${
      inError
        ? 'Fix the cause shown on the record and resend it, then try again.'
        : 'Try again once it is answered, usually within a minute or two.'
    }`,
    { extensions: { waiting_records: waiting.map((r) => ({ id: r.id, authority_status: r.authorityStatus })) } },
  );
}
