import { BREAKDOWN_LINE_FIELDS, trimSpaces, type Fields, type InvoiceRequest } from '@vf/core';
import type { InvoiceDetail, InvoiceRow } from '@vf/db';
import type { FieldIssue } from '@vf/contract';
import type { ApiViews, Problem } from '../dashboard-api';
import type { FormErrors } from '../html/form-fields';
import { TRANSLATED_CODES } from '../http/form-errors-from';
import { locale, t } from '../i18n/i18n';

/** The correction form's fields, named by the API's own field paths so its errors land on the right input. */
export type CorrectionValues = Record<string, string>;

export const LINE_FIELDS = BREAKDOWN_LINE_FIELDS;
const TOP_FIELDS = [
  'invoice_type',
  'description',
  'operation_date',
  'recipient.name',
  'recipient.nif',
  'recipient.country',
  'recipient.id_type',
  'recipient.id',
  'rectification_type',
  'rectified_base_amount',
  'rectified_tax_amount',
  'corrected_invoices',
  'total_amount',
  'total_tax_amount',
] as const;
/** Lines the form offers: the urlencoded parser takes at most 100 fields, and invoices rarely need more. */
export const MAX_FORM_LINES = 8;

const text = (v: string | null | undefined) => v ?? '';

/** The invoice's current content as form values: what the form starts from (lines in the API's field names). */
export function valuesFromInvoice({ invoice: i, lines }: InvoiceDetail, breakdownLine: ApiViews['breakdownLine']): CorrectionValues {
  const values: CorrectionValues = {
    invoice_type: i.invoiceType,
    description: i.description,
    operation_date: text(i.operationDate),
    rectification_type: text(i.rectificationType),
    rectified_base_amount: text(i.rectifiedBaseAmount),
    rectified_tax_amount: text(i.rectifiedTaxAmount),
    corrected_invoices: i.correctedInvoices.map((c) => `${c.invoice_number} ${c.invoice_date}`).join('\n'),
    total_amount: i.totalAmount,
    total_tax_amount: i.totalTaxAmount,
  };
  const r = i.recipient;
  if (r) {
    values['recipient.name'] = r.name;
    if ('nif' in r) values['recipient.nif'] = r.nif;
    else Object.assign(values, { 'recipient.country': r.country, 'recipient.id_type': r.id_type, 'recipient.id': r.id });
  }
  lines.forEach((l, n) => {
    const line = breakdownLine(l);
    for (const f of LINE_FIELDS) values[`breakdown.${n}.${f}`] = text(line[f]);
  });
  return values;
}

/**
 * The posted fields without the spaces at their ends (any other blank goes on to the service, which refuses it with
 * its reason: decision 0033); anything the form does not have is ignored.
 */
export function valuesFromForm(body: Record<string, unknown>): CorrectionValues {
  const names = [...TOP_FIELDS, ...Array.from({ length: MAX_FORM_LINES }, (_, n) => LINE_FIELDS.map((f) => `breakdown.${n}.${f}`)).flat()];
  return Object.fromEntries(names.flatMap((name) => (typeof body[name] === 'string' ? [[name, trimSpaces(body[name] as string)]] : [])));
}

/** Lines typed in the form, in order, skipping rows left empty. */
export function lineCount(values: CorrectionValues): number {
  let last = -1;
  for (let n = 0; n < MAX_FORM_LINES; n++) if (LINE_FIELDS.some((f) => values[`breakdown.${n}.${f}`])) last = n;
  return last + 1;
}

/**
 * What the record says that the form does not edit (more recipients, who issued the invoice, its flags, substituted
 * invoices, the recargo of a substitution): a correction made here keeps it as it is.
 */
export function keptFromInvoice(i: InvoiceRow): Fields<InvoiceRequest> & { additional_recipients: unknown } {
  const issuedBy = i.issuedBy === 'D' ? 'recipient' : i.issuedBy === 'T' ? 'third_party' : undefined;
  return {
    additional_recipients: i.additionalRecipients,
    issued_by: issuedBy,
    third_party: i.thirdParty ?? undefined,
    simplified_art_72_73: i.simplifiedArt7273 || undefined,
    without_recipient_art_61d: i.withoutRecipientArt61d || undefined,
    coupon: i.coupon || undefined,
    rectified_surcharge_amount: i.rectifiedSurchargeAmount ?? undefined,
    substituted_invoices: i.substitutedInvoices.length > 0 ? i.substitutedInvoices : undefined,
  };
}

/**
 * The API request body of the corrected invoice: identity from the invoice, what the form edits from it, the rest kept.
 * Typed by the request's fields as the API's schema names them (@vf/core's generated types): no other name compiles.
 */
export function bodyFromValues(
  values: CorrectionValues,
  identity: Record<string, string>,
  kept: Partial<ReturnType<typeof keptFromInvoice>> = {},
): Fields<InvoiceRequest> {
  const v = (name: string) => values[name] || undefined;
  const breakdown = Array.from({ length: lineCount(values) }, (_, n) =>
    Object.fromEntries(LINE_FIELDS.flatMap((f) => (v(`breakdown.${n}.${f}`) ? [[f, v(`breakdown.${n}.${f}`)]] : []))),
  );
  const recipient =
    v('recipient.name') || v('recipient.nif') || v('recipient.id')
      ? v('recipient.nif')
        ? { name: values['recipient.name'] ?? '', nif: v('recipient.nif') }
        : { name: values['recipient.name'] ?? '', country: v('recipient.country'), id_type: v('recipient.id_type'), id: v('recipient.id') }
      : undefined;
  const corrected = (values.corrected_invoices ?? '')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((parts) => parts[0])
    .map(([invoice_number, invoice_date]) => ({ invoice_number, invoice_date }));
  const { additional_recipients: others, ...rest } = kept;
  // The form edits the first recipient; any others the invoice names follow it unchanged.
  const several = recipient && Array.isArray(others) && others.length > 0;
  return {
    ...rest,
    ...identity,
    invoice_type: v('invoice_type'),
    description: v('description'),
    operation_date: v('operation_date'),
    recipient: several ? undefined : recipient,
    recipients: several ? [recipient, ...others] : undefined,
    rectification_type: v('rectification_type'),
    rectified_base_amount: v('rectified_base_amount'),
    rectified_tax_amount: v('rectified_tax_amount'),
    corrected_invoices: corrected.length > 0 ? corrected : undefined,
    breakdown,
    total_amount: v('total_amount'),
    total_tax_amount: v('total_tax_amount'),
  };
}

/** Codes of the invoice rules whose problem the form says in its own words; any other is named by its code. */
const CORRECTION_CODES = [
  'invalid_amount',
  'invalid_date',
  'invalid_code',
  'invalid_characters',
  'invalid_length',
  'invalid_country',
  'invalid_rate',
  'reserved_characters',
  'tax_amount_mismatch',
  'tax_sign_mismatch',
];

/**
 * One field problem in the reader's language. English is the API's own language, so an English page keeps its precise
 * message (with the form's label for the field); another language says it through the catalogue.
 */
function correctionMessage(issue: FieldIssue, path: string, label: string): string {
  let message: string;
  if (locale() === 'en') message = issue.message.startsWith(path) ? label + issue.message.slice(path.length) : issue.message;
  else if (TRANSLATED_CODES.includes(issue.code)) message = t(`formError.${issue.code}`, { label });
  else message = t(`correction.fieldError.${CORRECTION_CODES.includes(issue.code) ? issue.code : 'rule'}`, { label, code: issue.code });
  return /[.!?]$/.test(message) ? message : `${message}.`;
}

/** Catalogue keys of the form's labels, by input name. */
export const LINE_LABEL_KEYS: Record<(typeof LINE_FIELDS)[number], string> = {
  tax_type: 'correction.colTax',
  regime_type: 'correction.colRegime',
  operation_type: 'correction.colOperation',
  base_amount: 'correction.colBase',
  cost_base_amount: 'correction.colCostBase',
  tax_rate: 'correction.colRate',
  tax_amount: 'correction.colTaxAmount',
  surcharge_rate: 'correction.colSurchargeRate',
  surcharge_amount: 'correction.colSurcharge',
};
const FIELD_LABEL_KEYS: Record<string, string> = {
  invoice_type: 'correction.type',
  description: 'correction.description',
  operation_date: 'correction.operationDate',
  'recipient.name': 'correction.recipientName',
  'recipient.country': 'correction.country',
  'recipient.id_type': 'correction.idType',
  'recipient.id': 'correction.id',
  rectification_type: 'correction.method',
  rectified_base_amount: 'correction.correctedBase',
  rectified_tax_amount: 'correction.correctedTax',
  corrected_invoices: 'correction.correctedInvoices',
  total_amount: 'correction.total',
  total_tax_amount: 'correction.totalTax',
  breakdown: 'correction.breakdown',
};

/** The form's label of an input, in the request's language ("Cuota, línea 2"). */
export function correctionFieldLabel(field: string): string {
  const line = /^breakdown\.(\d+)\.(\w+)$/.exec(field);
  if (line && line[2] in LINE_LABEL_KEYS) {
    return t('correction.lineLabel', { label: t(LINE_LABEL_KEYS[line[2] as (typeof LINE_FIELDS)[number]]), n: Number(line[1]) + 1 });
  }
  if (field === 'recipient.nif') return 'NIF';
  return FIELD_LABEL_KEYS[field] ? t(FIELD_LABEL_KEYS[field]) : field;
}

/**
 * The API's field problems keyed by field path (the form's input names, each labelled by `labelOf`); undefined when
 * there are none. English is the API's own language, so an English page keeps its precise message; otherwise a known
 * code is said by the catalogue. Shared by the correction form and the new invoice form.
 */
export function invoiceFieldErrorsFrom(err: Problem | undefined, labelOf: (field: string) => string): FormErrors | undefined {
  if (!err?.options.errors?.length) return undefined;
  const errors: FormErrors = {};
  for (const issue of err.options.errors) {
    // breakdown[0].base_amount -> breakdown.0.base_amount, the input's name.
    const path = issue.field.replace(/\[(\d+)\]/g, '.$1');
    const field = path.startsWith('corrected_invoices') ? 'corrected_invoices' : path;
    errors[field] ??= correctionMessage(issue, path, labelOf(field));
  }
  return errors;
}

/** The correction form's field problems (see invoiceFieldErrorsFrom). */
export const correctionErrorsFrom = (err: Problem | undefined) => invoiceFieldErrorsFrom(err, correctionFieldLabel);
