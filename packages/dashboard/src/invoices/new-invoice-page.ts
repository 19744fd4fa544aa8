import { errorSummary, inputField, selectField, type FormErrors } from '../html/form-fields';
import { html, type SafeHtml } from '../html/html';
import { csrfField } from '../html/layout';
import { t } from '../i18n/i18n';
import type { Page } from '../http/page-renderer';
import { NEW_INVOICE_LINES, NEW_LINE_FIELDS, type NewInvoiceValues } from './new-invoice-form';
import { typeLabel } from './invoice-kinds';

export interface NewInvoicePageView {
  values: NewInvoiceValues;
  errors: FormErrors;
  taxpayers: { id: string; label: string }[];
  systems: { id: string; label: string }[];
  /** Why the invoice was not registered (a refusal of the whole invoice), in words. */
  refusal?: string;
}

const LINE_LABEL_KEYS: Record<(typeof NEW_LINE_FIELDS)[number], string> = {
  base_amount: 'correction.colBase',
  tax_rate: 'correction.colRate',
  tax_amount: 'correction.colTaxAmount',
};

function linesTable(values: NewInvoiceValues, errors: FormErrors): SafeHtml {
  const label = (f: (typeof NEW_LINE_FIELDS)[number]) => t(LINE_LABEL_KEYS[f]);
  return html`<table class="responsive form-lines" data-testid="new-invoice-lines">
    <thead><tr>${NEW_LINE_FIELDS.map((f) => html`<th scope="col">${label(f)}</th>`)}</tr></thead>
    <tbody>${Array.from(
      { length: NEW_INVOICE_LINES },
      (_, n) =>
        html`<tr>${NEW_LINE_FIELDS.map((f) => {
          const name = `breakdown.${n}.${f}`;
          const error = errors[name];
          return html`<td data-label="${label(f)}"><input id="field-${name.replace(/\./g, '-')}" name="${name}" value="${values[name] ?? ''}" inputmode="decimal" aria-label="${t('correction.lineLabel', { label: label(f), n: n + 1 })}"${
            error ? html` aria-invalid="true" title="${error}"` : ''
          }></td>`;
        })}</tr>`,
    )}</tbody>
  </table>`;
}

/** An invoice (F1 or F2) typed in the dashboard: registered through the API's own registration, as POST /invoices. */
export function newInvoicePage(v: NewInvoicePageView): Page {
  const field = (name: string, label: string, extra: { hint?: string; type?: 'date'; required?: boolean } = {}) =>
    inputField({ name, label, value: v.values[name], errors: v.errors, ...extra });
  const choices = (items: { id: string; label: string }[]) => items.map((i) => [i.id, i.label] as const);
  return {
    title: t('newInvoice.title'),
    nav: 'invoices',
    body: (ctx) => html`<p class="breadcrumb"><a href="/app/invoices">${t('nav.invoices')}</a></p>
      <h1>${t('newInvoice.title')}</h1>
      <p>${t('newInvoice.lead')}</p>
      ${v.refusal ? html`<div class="notice notice--error" role="alert" data-testid="new-invoice-refusal"><p>${v.refusal}</p></div>` : ''}
      ${errorSummary(v.errors)}
      ${
        v.taxpayers.length === 0 || v.systems.length === 0
          ? html`<p class="notice">${t('newInvoice.needsSetup')}</p>`
          : html`<form method="post" action="/app/invoices/new" class="stack" novalidate data-submit-once>
        ${csrfField(ctx)}
        ${selectField({ name: 'taxpayer_id', label: t('newInvoice.taxpayer'), value: v.values.taxpayer_id, options: choices(v.taxpayers), errors: v.errors })}
        ${selectField({ name: 'computer_system_id', label: t('newInvoice.system'), value: v.values.computer_system_id, options: choices(v.systems), errors: v.errors })}
        ${field('invoice_number', t('newInvoice.number'), { hint: t('newInvoice.numberHint'), required: true })}
        ${field('invoice_date', t('newInvoice.date'), { type: 'date', required: true })}
        ${selectField({ name: 'invoice_type', label: t('correction.type'), value: v.values.invoice_type, options: (['F1', 'F2'] as const).map((ty) => [ty, typeLabel(ty)] as const), errors: v.errors })}
        ${field('description', t('correction.description'), { required: true })}
        <fieldset data-recipient-check="/app/tax-ids/check" data-text-checking="${t('taxIds.checking')}"><legend>${t('correction.recipient')}</legend>
          <p class="hint">${t('newInvoice.recipientHint')}</p>
          ${field('recipient.name', t('correction.recipientName'))}
          ${field('recipient.nif', 'NIF', { hint: t('correction.recipientNifHint') })}
          ${field('recipient.id', t('newInvoice.vatNumber'), { hint: t('newInvoice.vatNumberHint') })}
          <p class="recipient-check" data-recipient-check-output data-testid="recipient-check" aria-live="polite"></p>
        </fieldset>
        <fieldset><legend>${t('correction.breakdown')}</legend>
          <p class="hint">${t('newInvoice.linesHint')}</p>
          ${v.errors.breakdown ? html`<p class="field-error">${v.errors.breakdown}</p>` : ''}
          ${linesTable(v.values, v.errors)}
        </fieldset>
        <div class="actions">
          <button type="submit" class="button">${t('newInvoice.submit')}</button>
          <a href="/app/invoices" class="button button--secondary">${t('correction.back')}</a>
        </div>
      </form>`
      }`,
  };
}
