import type { InvoiceDetail, InvoiceSummary, SubmissionRow } from '@vf/db/src/stores';
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
    created_at: i.createdAt.toISOString(),
  };
}

export function renderInvoiceSummary({ pageKey: _pageKey, ...facts }: InvoiceSummary) {
  return renderFacts(facts);
}

export function renderInvoiceDetail({ invoice: i, lines, events }: InvoiceDetail) {
  return {
    ...renderFacts(i),
    description: i.description,
    operation_date: i.operationDate,
    recipient: i.recipient,
    rectification_type: i.rectificationType,
    rectified_base_amount: i.rectifiedBaseAmount,
    rectified_tax_amount: i.rectifiedTaxAmount,
    corrected_invoices: i.correctedInvoices,
    breakdown: lines.map((l) => ({
      tax_type: l.taxType,
      regime_type: l.regimeType,
      operation_type: l.operationType,
      base_amount: l.baseAmount,
      tax_rate: l.taxRate,
      tax_amount: l.taxAmount,
      surcharge_rate: l.surchargeRate,
      surcharge_amount: l.surchargeAmount,
    })),
    issuer: { nif: i.issuerNif, name: i.issuerName },
    computer_system: i.systemSnapshot,
    environment: i.isProduction ? 'production' : 'sandbox',
    previous_hash: i.previousHash,
    previous_invoice_id: i.previousInvoiceId,
    authority_message: authorityMessageOf(i),
    next_attempt_at: iso(i.nextAttemptAt),
    authority_csv: i.authorityCsv,
    status_history: events.map((e) => ({ status: e.status, at: e.at.toISOString(), code: e.code, message: e.message })),
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
