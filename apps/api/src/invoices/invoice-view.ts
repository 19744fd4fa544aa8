import { recordQrUrl } from '@vf/core';
import type { InvoiceDetail, InvoiceLineRow, InvoiceListRow, InvoiceRow, InvoiceSummary, SubmissionRow } from '@vf/db';
import { authorityMessageOf } from './authority-message';
import { CORRECTIVE_TYPES } from './invoice-list-schema';

// Amounts stay the strings PostgreSQL's numeric(…, 2) returns ("12.10", "-5.00"): exact, never floats.

const kindOf = (invoiceType: string) => (CORRECTIVE_TYPES.includes(invoiceType) ? 'corrective' : 'normal');
const iso = (d: Date | null) => (d ? d.toISOString() : null);

type InvoiceFacts = Omit<InvoiceSummary, 'pageKey'>;

/** What the list and the detail both show, in the same order. */
function renderFacts(i: InvoiceFacts) {
  return {
    id: i.id,
    taxpayer_id: i.taxpayerId,
    computer_system_id: i.computerSystemId,
    record_type: i.recordType,
    invoice_number: i.invoiceNumber,
    invoice_date: i.invoiceDate,
    invoice_type: i.invoiceType,
    kind: kindOf(i.invoiceType),
    total_amount: i.totalAmount,
    total_tax_amount: i.totalTaxAmount,
    chain_position: i.chainSeq,
    hash: i.hash,
    generated_at: i.generatedAtLiteral,
    qr_url: i.qrUrl,
    authority_status: i.authorityStatus,
    authority_code: i.authorityCode,
    cancelled: i.cancelled,
    created_at: i.createdAt.toISOString(),
  };
}

/** One record of an invoice's chain history, as sent (or to be sent) to the authority. */
/** The columns a record's rendering reads: a stored row, or a record just appended. */
type RenderedRecord = Pick<
  InvoiceRow,
  | 'id'
  | 'invoiceId'
  | 'recordType'
  | 'subsanacion'
  | 'rechazoPrevio'
  | 'sinRegistroPrevio'
  | 'hash'
  | 'previousHash'
  | 'chainSeq'
  | 'generatedAtLiteral'
  | 'authorityStatus'
  | 'authorityCode'
  | 'authorityMessage'
  | 'authorityCsv'
  | 'cancellationReason'
  | 'warnings'
> & { sandboxScenario?: string | null };

export function renderRecord(r: RenderedRecord) {
  return {
    id: r.id,
    invoice_id: r.invoiceId,
    record_type: r.recordType,
    flags: { subsanacion: r.subsanacion, rechazo_previo: r.rechazoPrevio, sin_registro_previo: r.sinRegistroPrevio },
    hash: r.hash,
    previous_hash: r.previousHash,
    chain_position: r.chainSeq,
    generated_at: r.generatedAtLiteral,
    authority_status: r.authorityStatus,
    authority_code: r.authorityCode,
    authority_message: r.authorityMessage,
    authority_csv: r.authorityCsv,
    cancellation_reason: r.cancellationReason,
    warnings: r.warnings,
    sandbox_scenario: r.sandboxScenario ?? null,
    xml_url: `/api/v1/invoices/${r.invoiceId}/records/${r.id}/xml`,
  };
}

export function renderInvoiceSummary(row: InvoiceListRow) {
  return {
    ...renderFacts(row),
    recipient_name: row.recipientName,
    recipient_nif: row.recipientNif,
    base_amount: row.baseAmount,
  };
}

/** A stored desglose line as the API names its fields (the request's own names). */
export function renderBreakdownLine(l: InvoiceLineRow) {
  return {
    tax_type: l.taxType,
    regime_type: l.regimeType,
    operation_type: l.operationType,
    base_amount: l.baseAmount,
    cost_base_amount: l.costBaseAmount,
    tax_rate: l.taxRate,
    tax_amount: l.taxAmount,
    surcharge_rate: l.surchargeRate,
    surcharge_amount: l.surchargeAmount,
  };
}

export function renderInvoiceDetail({ invoice: i, records, cancelled, lines, events }: InvoiceDetail) {
  // The invoice is its first record's id and creation; everything else is its current (latest) record.
  const first = records[0];
  return {
    ...renderFacts({ ...i, id: first.id, createdAt: first.createdAt, cancelled, qrUrl: recordQrUrl(i) }),
    description: i.description,
    operation_date: i.operationDate,
    // `recipient` is the first (the contract's one recipient); `recipients` all of them, in order.
    recipient: i.recipient,
    recipients: i.recipient ? [i.recipient, ...i.additionalRecipients] : [],
    issued_by: i.issuedBy === 'D' ? 'recipient' : i.issuedBy === 'T' ? 'third_party' : null,
    third_party: i.thirdParty,
    simplified_art_72_73: i.simplifiedArt7273,
    without_recipient_art_61d: i.withoutRecipientArt61d,
    coupon: i.coupon,
    rectification_type: i.rectificationType,
    rectified_base_amount: i.rectifiedBaseAmount,
    rectified_tax_amount: i.rectifiedTaxAmount,
    rectified_surcharge_amount: i.rectifiedSurchargeAmount,
    corrected_invoices: i.correctedInvoices,
    substituted_invoices: i.substitutedInvoices,
    breakdown: lines.map(renderBreakdownLine),
    issuer: { nif: i.issuerNif, name: i.issuerName },
    computer_system: i.systemSnapshot,
    environment: i.isProduction ? 'production' : 'sandbox',
    sandbox_scenario: i.sandboxScenario,
    previous_hash: i.previousHash,
    previous_invoice_id: i.previousInvoiceId,
    authority_message: authorityMessageOf(i),
    next_attempt_at: iso(i.nextAttemptAt),
    authority_csv: i.authorityCsv,
    warnings: i.warnings,
    ...(first.recipientCheck && { recipient_check: first.recipientCheck }),
    status_history: events.map((e) => ({
      status: e.status,
      at: e.at.toISOString(),
      code: e.code,
      message: e.message,
      record_id: e.invoiceId,
    })),
    records: records.map(renderRecord),
    updated_at: i.updatedAt.toISOString(),
  };
}

export function renderSubmission(s: SubmissionRow) {
  return {
    id: s.id,
    started_at: s.startedAt.toISOString(),
    finished_at: iso(s.finishedAt),
    outcome: s.outcome,
    endpoint: s.endpoint,
    certificate_mode: s.certificateMode,
    incident: s.incident,
    http_status: s.httpStatus,
    fault_code: s.faultCode,
    error_message: s.errorMessage,
    csv: s.csv,
    request_xml: s.requestXml,
    response_xml: s.responseXml,
  };
}
