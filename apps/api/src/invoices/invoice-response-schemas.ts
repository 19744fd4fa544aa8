import Joi from 'joi';
import { issue, problem } from '../errors/problem-schema';
import { taxIdAnswer } from '../tax-ids/tax-id-check-schemas';
import {
  amount,
  envelope,
  environment,
  id,
  isoDay,
  nullableAmount,
  nullableText,
  nullableTimestamp,
  text,
  timestamp,
} from '../shared/answer-schema-parts';
import { AUTHORITY_STATUSES } from './invoice-list-schema';
import type { renderInvoiceDetail, renderInvoiceSummary, renderRecord, renderSubmission } from './invoice-view';

// The answers of the invoice endpoints.

const status = Joi.string().valid(...AUTHORITY_STATUSES);
const recordType = Joi.string().valid('registration', 'correction', 'cancellation');
const invoiceFacts = {
  id: id.required(),
  taxpayer_id: id.required(),
  computer_system_id: id.required(),
  record_type: recordType.required(),
  invoice_number: text.required(),
  invoice_date: isoDay.required(),
  invoice_type: text.required(),
  kind: Joi.string().valid('normal', 'corrective').required(),
  total_amount: amount.required(),
  total_tax_amount: amount.required(),
  chain_position: Joi.number().integer().min(1).required(),
  hash: text.required(),
  generated_at: text.required(),
  qr_url: Joi.string().uri().required(),
  authority_status: status.required(),
  authority_code: Joi.number().integer().allow(null).required(),
  cancelled: Joi.boolean().required(),
  created_at: timestamp.required(),
};

export const invoiceSummary = Joi.object<ReturnType<typeof renderInvoiceSummary>, true>({
  ...invoiceFacts,
  recipient_name: nullableText.required(),
  recipient_nif: nullableText.required().description('The recipient’s NIF, or its foreign identifier.'),
  base_amount: nullableAmount.required().description('Sum of the breakdown’s bases; null for a cancellation.'),
});

const sandboxScenarioField = nullableText
  .required()
  .description('The sandbox scenario the record went under (GET /sandbox/scenarios); null for a record sent as it is.');

export const record = Joi.object<ReturnType<typeof renderRecord>, true>({
  id: id.required(),
  invoice_id: id.required(),
  record_type: recordType.required(),
  flags: Joi.object({
    subsanacion: Joi.boolean().required(),
    rechazo_previo: Joi.string().valid('S', 'X').allow(null).required(),
    sin_registro_previo: Joi.boolean().required(),
  }).required(),
  hash: text.required(),
  previous_hash: nullableText.required(),
  chain_position: Joi.number().integer().required(),
  generated_at: text.required(),
  authority_status: status.required(),
  authority_code: Joi.number().integer().allow(null).required(),
  authority_message: nullableText.required(),
  authority_csv: nullableText.required(),
  cancellation_reason: nullableText.required(),
  warnings: Joi.array().items(issue).required(),
  sandbox_scenario: sandboxScenarioField,
  xml_url: text.required(),
});

const identified = [
  Joi.object({ name: text.required(), nif: text.required() }),
  Joi.object({
    name: text.required(),
    country: text.description('Absent for an EU VAT number (id_type 02) given without country.'),
    id_type: text.required(),
    id: text.required(),
  }),
];
const recipient = Joi.alternatives(...identified, Joi.valid(null));
const references = Joi.array().items(Joi.object({ invoice_number: text.required(), invoice_date: text.required() }));

const invoiceDetailKeys = {
  ...invoiceFacts,
  description: text.required(),
  operation_date: isoDay.allow(null).required(),
  recipient: recipient.required().description('The first recipient (null when none).'),
  recipients: Joi.array()
    .items(Joi.alternatives(...identified))
    .required()
    .description('Every recipient, in order (Destinatarios).'),
  issued_by: Joi.string().valid('recipient', 'third_party').allow(null).required(),
  third_party: recipient.required(),
  simplified_art_72_73: Joi.boolean().required(),
  without_recipient_art_61d: Joi.boolean().required(),
  coupon: Joi.boolean().required(),
  rectification_type: Joi.string().valid('S', 'I').allow(null).required(),
  rectified_base_amount: nullableAmount.required(),
  rectified_tax_amount: nullableAmount.required(),
  rectified_surcharge_amount: nullableAmount.required(),
  corrected_invoices: references.required(),
  substituted_invoices: references.required(),
  breakdown: Joi.array()
    .items(
      Joi.object({
        tax_type: text.required(),
        regime_type: nullableText.required(),
        operation_type: text.required(),
        base_amount: amount.required(),
        cost_base_amount: nullableAmount.required(),
        tax_rate: Joi.string().allow(null).required(),
        tax_amount: nullableAmount.required(),
        surcharge_rate: Joi.string().allow(null).required(),
        surcharge_amount: nullableAmount.required(),
      }),
    )
    .required(),
  issuer: Joi.object({ nif: text.required(), name: text.required() }).required(),
  computer_system: Joi.object().unknown(true).required().description('The SistemaInformatico block as hashed and sent.'),
  environment: environment.required(),
  sandbox_scenario: sandboxScenarioField,
  previous_hash: nullableText.required(),
  previous_invoice_id: id.allow(null).required(),
  authority_message: nullableText.required(),
  next_attempt_at: nullableTimestamp.required(),
  authority_csv: nullableText.required(),
  warnings: Joi.array().items(issue).required(),
  recipient_check: Joi.array()
    .items(taxIdAnswer)
    .description(
      'When the registration asked `recipient_check` (or the account’s default did): what the census said of its Spanish recipients and VIES of its EU VAT numbers.',
    ),
  status_history: Joi.array()
    .items(
      Joi.object({
        status: status.required(),
        at: timestamp.required(),
        code: Joi.number().integer().allow(null).required(),
        message: nullableText.required(),
        record_id: id.required(),
      }),
    )
    .required(),
  records: Joi.array().items(record).required(),
  updated_at: timestamp.required(),
};
export const invoiceDetail = Joi.object<ReturnType<typeof renderInvoiceDetail>, true>(invoiceDetailKeys);

const registeredInvoice = Joi.object({
  id: id.required(),
  invoice_number: text.required(),
  hash: text.required(),
  qr_url: Joi.string().uri().required(),
  authority_status: Joi.string()
    .valid('queued', 'kept')
    .required()
    .description('`queued` for the workers to send (VERI*FACTU); `kept`, signed and never sent on its own (NO VERI*FACTU).'),
  operating_mode: Joi.string().valid('verifactu', 'no_verifactu').required(),
  signed_record: Joi.object({
    url: text.required().description('GET it as XML: the signed record exactly as kept.'),
    xml_base64: text.required().description('The signed record (RegistroAlta with its XAdES-EPES signature), UTF-8, base64.'),
  })
    .allow(null)
    .required()
    .description('NO VERI*FACTU: the record as signed when it was registered; null in VERI*FACTU.'),
  record_type: Joi.string().valid('registration').required(),
  taxpayer_id: id.required(),
  chain_position: Joi.number().integer().min(1).required(),
  previous_hash: nullableText.required(),
  generated_at: text.required(),
  warnings: Joi.array().items(issue).required(),
});

export const registeredInvoiceResponse = envelope(registeredInvoice);

export const validationResponse = envelope(
  Joi.object({ valid: Joi.boolean().valid(true).required(), warnings: Joi.array().items(issue).required() }),
);

export const classificationResponse = envelope(
  Joi.object({
    operation_class: text.required(),
    operation_type: text.required(),
    regime_type: text.required(),
    tax_type: text.required(),
    tax_rate: Joi.number().required(),
    notes: text.required().description('Advice; says where the contract’s codes above and the authority’s rules part.'),
    breakdown_line: Joi.object({
      tax_type: text.required(),
      regime_type: text.required(),
      operation_type: text.required(),
      base_amount: nullableAmount.required().description('The request’s base_amount; null without one.'),
      tax_rate: Joi.string().description('Only on a taxed line.'),
      tax_amount: nullableAmount.description('Only on a taxed line: base × rate, null without a base_amount.'),
    })
      .required()
      .description('The line to register the sale with, as POST /invoices takes it: POST /invoices/validate accepts it as it is.'),
  }),
);

export const resendResponse = envelope(
  Joi.object({
    ...invoiceDetailKeys,
    resumed_records: Joi.number().integer().min(0).required(),
  }),
);

export const submission = Joi.object<ReturnType<typeof renderSubmission>, true>({
  id: id.required(),
  started_at: timestamp.required(),
  finished_at: nullableTimestamp.required(),
  outcome: nullableText.required(),
  endpoint: nullableText.required(),
  certificate_mode: nullableText.required(),
  incident: Joi.boolean().allow(null).required(),
  http_status: Joi.number().integer().allow(null).required(),
  fault_code: nullableText.required(),
  error_message: nullableText.required(),
  csv: nullableText.required(),
  request_xml: nullableText.required(),
  response_xml: nullableText.required(),
});

const recipientCheck = Joi.array()
  .items(taxIdAnswer)
  .description('With `recipient_check`: what the census (or VIES) said of the item’s recipients.');

const batchIndex = Joi.number().integer().min(0).required().description('Position of the item in the request array.');

export const batchRegistrationResponse = Joi.object({
  message: text.required(),
  registered: Joi.number().integer().min(0).required(),
  failed: Joi.number().integer().min(0).required(),
  results: Joi.array()
    .items(
      Joi.alternatives(
        Joi.object({
          index: batchIndex,
          status: Joi.number().valid(201).required(),
          data: registeredInvoice.required(),
          recipient_check: recipientCheck,
        }).description('A registered item: what POST /invoices answers.'),
        Joi.object({
          index: batchIndex,
          status: Joi.number().integer().min(400).required(),
          problem: problem.required(),
          recipient_check: recipientCheck,
        }).description('A refused item: its problem, as POST /invoices would answer it.'),
      ),
    )
    .required()
    .description('One result per item, in the order of the request.'),
});
