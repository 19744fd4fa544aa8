import Joi from 'joi';
import { MAX_BREAKDOWN_LINES, MAX_RECORD_LIST_ENTRIES, SUPPLY_TYPES, TERRITORIES } from '@vf/core';
import { text } from '../shared/text-schema';
import { CORRECTIVE_TYPES, NORMAL_TYPES } from './invoice-list-schema';

// The shape of an invoice request (POST /invoices, PUT /invoices/{id}, POST /invoices/validate). The
// authority's rules in @vf/core (validateInvoiceRequest) judge the content and answer with their own codes;
// this schema is what the OpenAPI document shows, applied in the same pass (validateInvoiceBody, invoice-registration-service.ts), so the
// API never takes a body the document calls invalid (see docs/api.md). Text lengths are characters (code
// points), as the authority's schema counts them.
//
// It is also the one description those rules read the request through: its names, required fields, code lists,
// lengths, each field's form and each list's sizes, with the authority's numbers carried here, are generated into
// @vf/core (invoice-request.generated.ts, by request-type-source.ts).

/**
 * The authority's numbers for a field's refusals (AEAT "Validaciones y errores" v1.2.0), carried as the field's meta
 * (which the OpenAPI document leaves out): `missing` for a required field left out (4102, "Falta informar campo
 * obligatorio", for an element the authority's schema requires); `invalid` for a value outside the field's code list,
 * length or calendar, or for an amount with too many digits (any other wrong value is 1100); `words` names a code
 * list's values in a refusal, where the values alone say too little. On a list, `missing` is for one given empty below
 * its minimum and `invalid` for one over its maximum (4113, "se ha superado el límite permitido de registros para el
 * bloque"); a list or an entry of the wrong type is 1100.
 */
const authority = (codes: { missing?: number; invalid?: number; words?: string }) => ({ authority: codes });
const MANDATORY = authority({ missing: 4102 });
/** How the authority's rules read a value the schema gives as a pattern or a choice of types (request-type-source.ts). */
const form = (name: 'amount' | 'rate' | 'date' | 'invoice_number') => ({ form: name });

const amountForms = [Joi.number(), Joi.string().pattern(/^[+-]?(0|[1-9]\d{0,11})(\.\d{1,2})?$/)];
const amountNote = 'Up to 12 digits and 2 decimals, as a JSON number or (better, exact) a decimal string.';
const amount = Joi.alternatives(...amountForms)
  .description(amountNote)
  .meta(form('amount'));
// joi-to-json writes allow(null) on alternatives as a contradiction; null is one more alternative instead.
const optionalAmount = Joi.alternatives(...amountForms, Joi.valid(null))
  .description(amountNote)
  .meta(form('amount'));
const optionalRate = Joi.alternatives(Joi.number(), Joi.string().pattern(/^\d{1,3}(\.\d{1,2})?$/), Joi.valid(null)).meta(form('rate'));
const date = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .description('YYYY-MM-DD')
  .meta(form('date'));
const code = (values: string[]) => Joi.string().valid(...values);

const breakdownLine = Joi.object({
  tax_type: Joi.string().max(2).allow(null).description('Impuesto: 01 IVA, 02 IPSI, 03 IGIC, 05 other.'),
  regime_type: Joi.string().max(2).allow(null).description('ClaveRegimen.'),
  operation_type: Joi.string().max(2).allow(null).description('CalificacionOperacion (S1, S2, N1, N2) or OperacionExenta (E1-E8).'),
  base_amount: amount.required().meta(MANDATORY),
  cost_base_amount: optionalAmount.description('BaseImponibleACoste: regime 06 (group of entities), or IPSI / other taxes.'),
  tax_rate: optionalRate,
  tax_amount: optionalAmount,
  surcharge_rate: optionalRate,
  surcharge_amount: optionalAmount,
});

const spanishParty = Joi.object({ name: text(120).required().meta(MANDATORY), nif: Joi.string().max(20).required() });
const foreignParty = Joi.object({
  name: text(120).required().meta(MANDATORY),
  country: Joi.string().length(2).description('Required unless id_type is 02 (EU VAT number), whose prefix names the country.'),
  id_type: Joi.string()
    .max(2)
    .required()
    .description('IDType: 02 EU VAT number, 03 passport, 04-06 other documents, 07 not in the census.')
    .meta(MANDATORY),
  id: text(20)
    .required()
    .meta(authority({ missing: 4102, invalid: 1222 })),
});
const party = (what: string) =>
  Joi.alternatives(spanishParty, foreignParty, Joi.valid(null)).description(
    `${what}: a Spanish NIF, or a foreign identification (IDOtro).`,
  );
// NumSerieFactura: 1104 for one of no or too many characters.
const INVOICE_NUMBER = { ...authority({ missing: 4102, invalid: 1104 }), ...form('invoice_number') };
const ISSUE_DATE = authority({ missing: 4102, invalid: 1105 });
// A block longer than the authority's schema allows (4113).
const OVER_LIMIT = authority({ invalid: 4113 });
const references = (what: string) =>
  Joi.array()
    .items(
      Joi.object({ invoice_number: Joi.string().max(60).required().meta(INVOICE_NUMBER), invoice_date: date.required().meta(ISSUE_DATE) }),
    )
    .max(MAX_RECORD_LIST_ENTRIES)
    .allow(null)
    .description(what)
    .meta(OVER_LIMIT);

export const invoiceRequestSchema = Joi.object({
  taxpayer_id: Joi.string().guid().required(),
  computer_system_id: Joi.string().guid().required(),
  invoice_number: Joi.string().min(1).max(60).required().meta(INVOICE_NUMBER),
  invoice_date: date.required().meta(ISSUE_DATE),
  invoice_type: code([...NORMAL_TYPES, ...CORRECTIVE_TYPES])
    .required()
    .meta(authority({ missing: 4102, invalid: 1106 })),
  description: text(500).required().meta(MANDATORY),
  operation_date: date.allow(null).meta(authority({ invalid: 1145 })),
  recipient: party('The recipient (one; or use recipients)'),
  recipients: Joi.array()
    .items(Joi.alternatives(spanishParty, foreignParty))
    .min(1)
    .max(MAX_RECORD_LIST_ENTRIES)
    .allow(null)
    .description('Several recipients (Destinatarios, up to 1,000), instead of recipient.')
    .meta(OVER_LIMIT),
  issued_by: code(['recipient', 'third_party'])
    .allow(null)
    .description('EmitidaPorTerceroODestinatario: the invoice was issued by the recipient, or by a third party (give third_party).')
    .meta(authority({ invalid: 1151 })),
  third_party: party('Tercero: the third party that issued the invoice on the issuer’s behalf, with issued_by third_party'),
  simplified_art_72_73: Joi.boolean()
    .allow(null)
    .description('FacturaSimplificadaArt7273: a simplified invoice under arts. 7.2 and 7.3 RD 1619/2012 (F1, F3, R1-R4).')
    .meta(authority({ invalid: 1136 })),
  without_recipient_art_61d: Joi.boolean()
    .allow(null)
    .description('FacturaSinIdentifDestinatarioArt61d: an invoice without identified recipient, art. 6.1.d RD 1619/2012 (F2, R5).')
    .meta(authority({ invalid: 1184 })),
  coupon: Joi.boolean()
    .allow(null)
    .description('Cupon (R1 and R5 only).')
    .meta(authority({ invalid: 1157 })),
  rectification_type: code(['S', 'I'])
    .allow(null)
    .description('Corrective invoices: S substitution, I differences (default).')
    .meta(authority({ invalid: 1107, words: 'S (substitution) or I (differences)' })),
  rectified_base_amount: optionalAmount,
  rectified_tax_amount: optionalAmount,
  rectified_surcharge_amount: optionalAmount.description('CuotaRecargoRectificado: with rectification_type S.'),
  corrected_invoices: references('The invoices a corrective invoice (R1-R5) corrects.'),
  substituted_invoices: references('FacturasSustituidas: the simplified invoices an F3 replaces.'),
  // Desglose: none leaves a mandatory element out (4102); more than 12 lines break the block's limit (4113).
  breakdown: Joi.array()
    .items(breakdownLine)
    .min(1)
    .max(MAX_BREAKDOWN_LINES)
    .required()
    .meta(authority({ missing: 4102, invalid: 4113 })),
  total_amount: amount.required().meta(authority({ missing: 4102, invalid: 1267 })),
  total_tax_amount: amount.required().meta(authority({ missing: 4102, invalid: 1266 })),
});

/** POST /invoices/classify: read by classifyOperation in @vf/core, held to this shape in the same pass. */
export const classifyRequestSchema = Joi.object({
  issuer_territory: Joi.string()
    .valid(...TERRITORIES)
    .description('Where the issuer is established; peninsula by default.'),
  recipient_country: Joi.string().max(2).allow(null).description('ISO 3166-1 alpha-2; ES by default.'),
  recipient_vat: Joi.string().max(40).allow(null, '').description('The recipient’s VAT number (NIF for Spain), if a business.'),
  base_amount: optionalAmount.description('The sale’s taxable base: breakdown_line then comes with its amounts (tax = base × rate).'),
  supply_type: Joi.string()
    .valid(...SUPPLY_TYPES)
    .allow(null)
    .description(
      'What is sold, goods or services: a sale to an EU business is then answered with the authority’s own treatment, E5 regime 01 (goods) or N2 regime 01 (services), instead of E1 regime 02.',
    ),
});
