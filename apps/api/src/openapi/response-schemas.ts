import Joi from 'joi';
import { WEBHOOK_EVENT_TYPES } from '@vf/core';
import { AUTHORITY_STATUSES } from '../invoices/invoice-list-schema';

// The shapes of successful answers, in joi like the requests so one converter turns both into the document.
// The contract test holds real answers against them: a renderer that drifts fails it.

const text = Joi.string().allow('');
const nullableText = text.allow(null);
const id = Joi.string().guid();
const timestamp = Joi.string().isoDate();
const isoDay = Joi.string().pattern(/^\d{4}-\d{2}-\d{2}$/);
const nullableTimestamp = timestamp.allow(null);
const amount = Joi.string()
  .pattern(/^-?\d+\.\d{2}$/)
  .description('Decimal string with two decimals, e.g. "121.00" or "-12.10".');
const nullableAmount = amount.allow(null);
const status = Joi.string().valid(...AUTHORITY_STATUSES);

const issue = Joi.object({
  field: text.required(),
  code: text.required(),
  message: text.required(),
  authority_code: Joi.number().integer(),
  explanation: Joi.object({ es: text.required(), en: text.required() }).description(
    'On a warning the authority would register the invoice with (2000-2009): what it means and what to do, in Spanish and English.',
  ),
});
const warning = Joi.object({ code: text.required(), message: text.required() });

/** `{ data }` around a resource, with an optional human `message`. */
export function envelope(data: Joi.Schema): Joi.ObjectSchema {
  return Joi.object({ message: text, data: data.required() });
}

/** `{ data: [...], next_cursor }` of every paginated list. */
export function pageOf(item: Joi.Schema, extra: Record<string, Joi.Schema> = {}): Joi.ObjectSchema {
  return Joi.object({
    data: Joi.array().items(item).required(),
    next_cursor: Joi.string().allow(null).required().description('Pass as `cursor` for the next page; null on the last page.'),
    ...extra,
  });
}

export const apiKeyResponse = envelope(
  Joi.object({
    api_key: Joi.string().required().description('Shown once; send it as `Authorization: Bearer <key>`.'),
    api_key_hint: text.required(),
    name: text.required(),
    email: text.required(),
    plan: text.required(),
    monthly_quota: Joi.number().integer().allow(null).required(),
  }),
);

export const accountResponse = envelope(
  Joi.object({
    id: id.required(),
    name: text.required(),
    email: text.required(),
    plan: text.required(),
    monthly_quota: Joi.number().integer().allow(null).required(),
    usage: Joi.object({
      period: text.required(),
      used: Joi.number().integer().required(),
      remaining: Joi.number().integer().allow(null).required(),
      resets_at: timestamp.required(),
    }).required(),
    api_key_hint: text.required(),
    api_key_created_at: timestamp.required(),
    created_at: timestamp.required(),
  }),
);

const checkResult = Joi.string().valid('ok', 'unavailable');
export const healthResponse = Joi.object({
  status: Joi.string().valid('ok', 'unavailable').required(),
  checks: Joi.object({ database: checkResult.required(), redis: checkResult.required() }).required(),
});

export const taxpayer = Joi.object({
  id: id.required(),
  nif: text.required(),
  name: text.required(),
  is_production: Joi.boolean().required(),
  environment: Joi.string().valid('sandbox', 'production').required(),
  signing_mode: Joi.string().valid('own_certificate', 'social_collaborator').required(),
  has_certificate: Joi.boolean().required(),
  certificate_path: nullableText.required(),
  certificate: Joi.object({
    subject: nullableText.required(),
    nif: nullableText.required(),
    not_before: timestamp.required(),
    not_after: timestamp.required(),
    expired: Joi.boolean().required(),
    expires_in_days: Joi.number().integer().required(),
    source: text.required(),
  })
    .allow(null)
    .required(),
  chain: Joi.object({ total_records: Joi.number().integer().required(), last_hash: nullableText.required() }).required(),
  created_at: timestamp.required(),
  updated_at: timestamp.required(),
});
export const savedTaxpayerResponse = envelope(taxpayer.keys({ warnings: Joi.array().items(warning).required() }));

export const system = Joi.object({
  id: id.required(),
  vendor_name: text.required(),
  vendor_nif: text.required(),
  name: text.required(),
  version: text.required(),
  installation_number: text.required(),
  only_supports_verifactu: Joi.boolean().required(),
  system_code: text.required(),
  supports_multiple_taxpayers: Joi.boolean().required(),
  sole_taxpayer_id: id.allow(null).required(),
  created_at: timestamp.required(),
  updated_at: timestamp.required(),
});

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

export const invoiceSummary = Joi.object({
  ...invoiceFacts,
  recipient_name: nullableText.required(),
  recipient_nif: nullableText.required().description('The recipient’s NIF, or its foreign identifier.'),
  base_amount: nullableAmount.required().description('Sum of the breakdown’s bases; null for a cancellation.'),
});

export const record = Joi.object({
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

export const invoiceDetail = Joi.object({
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
  environment: Joi.string().valid('sandbox', 'production').required(),
  previous_hash: nullableText.required(),
  previous_invoice_id: id.allow(null).required(),
  authority_message: nullableText.required(),
  next_attempt_at: nullableTimestamp.required(),
  authority_csv: nullableText.required(),
  warnings: Joi.array().items(issue).required(),
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
});

const registeredInvoice = Joi.object({
  id: id.required(),
  invoice_number: text.required(),
  hash: text.required(),
  qr_url: Joi.string().uri().required(),
  authority_status: Joi.string().valid('queued').required(),
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

export const resendResponse = envelope(invoiceDetail.keys({ resumed_records: Joi.number().integer().min(0).required() }));

export const submission = Joi.object({
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

export const chainResponse = envelope(
  Joi.object({
    nif: text.required(),
    environment: Joi.string().valid('sandbox', 'production').required(),
    current_environment: Joi.string().valid('sandbox', 'production').required(),
    last_hash: nullableText.required(),
    total_records: Joi.number().integer().min(0).required(),
    last_record_at: nullableTimestamp.required(),
  }),
);

export const webhook = Joi.object({
  id: id.required(),
  url: Joi.string().uri().required(),
  events: Joi.array()
    .items(Joi.string().valid(...WEBHOOK_EVENT_TYPES))
    .required(),
  created_at: timestamp.required(),
});
export const createdWebhookResponse = envelope(
  webhook.keys({
    secret: Joi.string()
      .pattern(/^whsec_/)
      .required()
      .description('The signing secret, shown only here.'),
  }),
);

export const webhookDelivery = Joi.object({
  id: id.required(),
  event_type: text.required(),
  invoice_id: id.allow(null).required(),
  status: Joi.string().valid('pending', 'delivered', 'failed').required(),
  attempts: Joi.number().integer().min(0).required(),
  last_response_code: Joi.number().integer().allow(null).required(),
  last_error: nullableText.required(),
  next_attempt_at: nullableTimestamp.required(),
  delivered_at: nullableTimestamp.required(),
  created_at: timestamp.required(),
});

/** RFC 9457 problem details as the error handler writes them. */
export const problem = Joi.object({
  type: Joi.string().required().description('urn:vf:problem:<code>'),
  title: text.required(),
  status: Joi.number().integer().required(),
  detail: text.required(),
  code: Joi.string().required().description('Stable code to branch on; the route lists the ones it can answer.'),
  request_id: text.required(),
  errors: Joi.array().items(issue).description('Field problems of a 422.'),
  warnings: Joi.array().items(issue),
}).unknown(true);

const batchIndex = Joi.number().integer().min(0).required().description('Position of the item in the request array.');

export const batchRegistrationResponse = Joi.object({
  message: text.required(),
  registered: Joi.number().integer().min(0).required(),
  failed: Joi.number().integer().min(0).required(),
  results: Joi.array()
    .items(
      Joi.alternatives(
        Joi.object({ index: batchIndex, status: Joi.number().valid(201).required(), data: registeredInvoice.required() }).description(
          'A registered item: what POST /invoices answers.',
        ),
        Joi.object({ index: batchIndex, status: Joi.number().integer().min(400).required(), problem: problem.required() }).description(
          'A refused item: its problem, as POST /invoices would answer it.',
        ),
      ),
    )
    .required()
    .description('One result per item, in the order of the request.'),
});
