import { formatCents, parseAmount, parseRate, percentOf, trimSpaces, type Fields, type InvoiceRequest } from '@vf/core';
import type { FormErrors } from '../html/form-fields';
import { t } from '../i18n/i18n';
import { correctionFieldLabel } from './correction-form';

/** The new invoice form's fields, named by the API's own field paths so its errors land on the right input. */
export type NewInvoiceValues = Record<string, string>;

const TOP_FIELDS = [
  'taxpayer_id',
  'computer_system_id',
  'invoice_number',
  'invoice_date',
  'invoice_type',
  'description',
  'recipient.name',
  'recipient.nif',
  'recipient.id',
] as const;
export const NEW_LINE_FIELDS = ['base_amount', 'tax_rate', 'tax_amount'] as const;
/** Lines the form offers: a simple invoice; others go through the API. */
export const NEW_INVOICE_LINES = 4;

const lineName = (n: number, f: string) => `breakdown.${n}.${f}`;

/**
 * The posted fields without the spaces at their ends; a decimal comma (as Spanish users write 121,50) read as the
 * point the API takes. Anything the form does not have is ignored.
 */
export function newInvoiceValuesFromForm(body: Record<string, unknown>): NewInvoiceValues {
  const names = [...TOP_FIELDS, ...Array.from({ length: NEW_INVOICE_LINES }, (_, n) => NEW_LINE_FIELDS.map((f) => lineName(n, f))).flat()];
  return Object.fromEntries(
    names.flatMap((name) => {
      const value = body[name];
      if (typeof value !== 'string') return [];
      const trimmed = trimSpaces(value);
      return [[name, name.startsWith('breakdown.') && /^[+-]?\d+,\d{1,2}$/.test(trimmed) ? trimmed.replace(',', '.') : trimmed]];
    }),
  );
}

/** The line's tax: as typed, or the base times the rate when left empty (rounded as the authority rounds it). */
function lineTax(base: string, rate: string, typed: string): string | undefined {
  if (typed !== '') return typed;
  const [b, r] = [parseAmount(base), parseRate(rate)];
  return b.ok && r.ok ? formatCents(percentOf(b.cents, r.hundredths)) : undefined;
}

/** Sums of the lines' base and tax, when every amount is one; otherwise the API says what is wrong with the lines. */
function totals(lines: { base_amount?: string; tax_amount?: string }[]): { total_amount?: string; total_tax_amount?: string } {
  const bases = lines.map((l) => parseAmount(l.base_amount));
  const taxes = lines.map((l) => parseAmount(l.tax_amount));
  if (lines.length === 0 || [...bases, ...taxes].some((a) => !a.ok)) return {};
  const cents = (amounts: typeof bases) => amounts.reduce((sum, a) => sum + (a.ok ? a.cents : 0n), 0n);
  return { total_amount: formatCents(cents(bases) + cents(taxes)), total_tax_amount: formatCents(cents(taxes)) };
}

/**
 * The API request body of the invoice the form describes: VAT (01) lines of the general regime (01), subject and not
 * exempt (S1); the recipient by Spanish NIF or by EU VAT number (IDOtro, id_type 02, its prefix naming the country).
 */
export function newInvoiceBody(values: NewInvoiceValues): Fields<InvoiceRequest> {
  const v = (name: string) => values[name] || undefined;
  const lines = Array.from({ length: NEW_INVOICE_LINES }, (_, n) => n)
    .filter((n) => NEW_LINE_FIELDS.some((f) => v(lineName(n, f))))
    .map((n) => {
      const [base, rate, tax] = NEW_LINE_FIELDS.map((f) => values[lineName(n, f)] ?? '');
      return {
        tax_type: '01',
        regime_type: '01',
        operation_type: 'S1',
        base_amount: v(lineName(n, 'base_amount')),
        tax_rate: v(lineName(n, 'tax_rate')),
        tax_amount: lineTax(base!, rate!, tax!),
      };
    });
  const name = values['recipient.name'] ?? '';
  const recipient = v('recipient.nif')
    ? { name, nif: v('recipient.nif') }
    : v('recipient.id')
      ? { name, id_type: '02', id: v('recipient.id') }
      : name
        ? { name }
        : undefined;
  return {
    taxpayer_id: v('taxpayer_id'),
    computer_system_id: v('computer_system_id'),
    invoice_number: v('invoice_number'),
    invoice_date: v('invoice_date'),
    invoice_type: v('invoice_type'),
    description: v('description'),
    recipient,
    breakdown: lines,
    ...totals(lines),
  };
}

const LABEL_KEYS: Record<string, string> = {
  taxpayer_id: 'newInvoice.taxpayer',
  computer_system_id: 'newInvoice.system',
  invoice_number: 'newInvoice.number',
  invoice_date: 'newInvoice.date',
  'recipient.id': 'newInvoice.vatNumber',
  total_amount: 'newInvoice.total',
  total_tax_amount: 'newInvoice.totalTax',
};

/** The form's label of an input, in the request's language; the fields it shares with the correction form keep theirs. */
export function newInvoiceFieldLabel(field: string): string {
  return LABEL_KEYS[field] ? t(LABEL_KEYS[field]) : correctionFieldLabel(field);
}

/**
 * The form's own problems: the totals and an empty tax are worked out from the lines, so while a line's amounts are
 * wrong, what the API says of them follows from that line's problem and is not said again.
 */
export function withoutDerivedErrors(errors: FormErrors): FormErrors {
  const lineWrong = Object.keys(errors).some((f) => f.startsWith('breakdown.'));
  return Object.fromEntries(
    Object.entries(errors).filter(([field]) => {
      if (field === 'total_amount' || field === 'total_tax_amount') return !lineWrong;
      const tax = /^breakdown\.(\d+)\.tax_amount$/.exec(field);
      return !tax || !(errors[lineName(Number(tax[1]), 'base_amount')] || errors[lineName(Number(tax[1]), 'tax_rate')]);
    }),
  );
}
