import Joi from 'joi';
import { TERRITORIES } from '@vf/core';
import { CORRECTIVE_TYPES, NORMAL_TYPES } from './invoice-list-schema';

// The shape of an invoice request (POST /invoices, PUT /invoices/{id}, POST /invoices/validate). The
// authority's rules in @vf/core (validateInvoiceRequest) judge the content and answer with their own codes;
// this schema is what the OpenAPI document shows, and the registration service applies it to every body
// those rules accept, so the API never takes a body the document calls invalid (see docs/api.md).

const amountForms = [Joi.number(), Joi.string().pattern(/^-?(0|[1-9]\d{0,11})(\.\d{1,2})?$/)];
const amountNote = 'Up to 12 digits and 2 decimals, as a JSON number or (better, exact) a decimal string.';
const amount = Joi.alternatives(...amountForms).description(amountNote);
// joi-to-json writes allow(null) on alternatives as a contradiction; null is one more alternative instead.
const optionalAmount = Joi.alternatives(...amountForms, Joi.valid(null)).description(amountNote);
const optionalRate = Joi.alternatives(Joi.number(), Joi.string().pattern(/^\d{1,3}(\.\d{1,2})?$/), Joi.valid(null));
const date = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .description('YYYY-MM-DD');
const code = (values: string[]) => Joi.string().valid(...values);

const breakdownLine = Joi.object({
  tax_type: Joi.string().max(2).allow(null).description('Impuesto: 01 IVA, 02 IPSI, 03 IGIC, 05 other.'),
  regime_type: Joi.string().max(2).allow(null).description('ClaveRegimen.'),
  operation_type: Joi.string().max(2).allow(null).description('CalificacionOperacion (S1, S2, N1, N2) or OperacionExenta (E1-E6).'),
  base_amount: amount.required(),
  tax_rate: optionalRate,
  tax_amount: optionalAmount,
  surcharge_rate: optionalRate,
  surcharge_amount: optionalAmount,
});

const spanishRecipient = Joi.object({ name: Joi.string().max(120).required(), nif: Joi.string().max(20).required() });
const foreignRecipient = Joi.object({
  name: Joi.string().max(120).required(),
  country: Joi.string().length(2).required(),
  id_type: Joi.string().max(2).required(),
  id: Joi.string().max(20).required(),
});

export const invoiceRequestSchema = Joi.object({
  taxpayer_id: Joi.string().guid().required(),
  computer_system_id: Joi.string().guid().required(),
  invoice_number: Joi.string().min(1).max(60).required(),
  invoice_date: date.required(),
  invoice_type: code([...NORMAL_TYPES, ...CORRECTIVE_TYPES]).required(),
  description: Joi.string().max(500).required(),
  operation_date: date.allow(null),
  recipient: Joi.alternatives(spanishRecipient, foreignRecipient, Joi.valid(null)).description(
    'A Spanish NIF, or a foreign identification (IDOtro).',
  ),
  rectification_type: code(['S', 'I']).allow(null).description('Corrective invoices: S substitution, I differences (default).'),
  rectified_base_amount: optionalAmount,
  rectified_tax_amount: optionalAmount,
  corrected_invoices: Joi.array()
    .items(Joi.object({ invoice_number: Joi.string().max(60).required(), invoice_date: date.required() }))
    .allow(null),
  breakdown: Joi.array().items(breakdownLine).min(1).required(),
  total_amount: amount.required(),
  total_tax_amount: amount.required(),
});

/** POST /invoices/classify: read by classifyOperation in @vf/core, held to this shape the same way. */
export const classifyRequestSchema = Joi.object({
  issuer_territory: Joi.string()
    .valid(...TERRITORIES)
    .description('Where the issuer is established; peninsula by default.'),
  recipient_country: Joi.string().max(2).allow(null).description('ISO 3166-1 alpha-2; ES by default.'),
  recipient_vat: Joi.string().max(40).allow(null, '').description('The recipient’s VAT number (NIF for Spain), if a business.'),
});
