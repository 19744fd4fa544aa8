import { errorSummary, inputField, selectField, type FormErrors } from '../html/form-fields';
import { formatInvoiceDate } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { csrfField } from '../html/layout';
import { t } from '../i18n/i18n';
import type { Page } from '../http/page-renderer';
import { LINE_FIELDS, LINE_LABEL_KEYS, lineCount, MAX_FORM_LINES, type CorrectionValues } from './correction-form';
import { CORRECTIVE_TYPES, NORMAL_TYPES, typeLabel } from './invoice-kinds';

export interface CorrectionPageView {
  invoiceId: string;
  invoiceNumber: string;
  invoiceDate: string;
  values: CorrectionValues;
  errors: FormErrors;
  /** Why the correction cannot be made now (409), in words. */
  refusal?: string;
  /** The invoice is cancelled: this correction reactivates it. */
  reactivates: boolean;
}

function linesTable(values: CorrectionValues, errors: FormErrors): SafeHtml {
  // Room for one more line than the invoice has, up to the form's limit.
  const rows = Math.min(MAX_FORM_LINES, lineCount(values) + 1);
  const label = (f: (typeof LINE_FIELDS)[number]) => t(LINE_LABEL_KEYS[f]);
  return html`<table class="responsive form-lines">
    <thead><tr>${LINE_FIELDS.map((f) => html`<th scope="col">${label(f)}</th>`)}</tr></thead>
    <tbody>${Array.from(
      { length: rows },
      (_, n) =>
        html`<tr>${LINE_FIELDS.map((f) => {
          const name = `breakdown.${n}.${f}`;
          const error = errors[name];
          return html`<td data-label="${label(f)}"><input id="field-${name.replace(/\./g, '-')}" name="${name}" value="${values[name] ?? ''}" aria-label="${t('correction.lineLabel', { label: label(f), n: n + 1 })}"${
            error ? html` aria-invalid="true" title="${error}"` : ''
          }></td>`;
        })}</tr>`,
    )}</tbody>
  </table>`;
}

export function correctionPage(v: CorrectionPageView): Page {
  const field = (name: string, label: string, extra: { hint?: string; type?: 'date' } = {}) =>
    inputField({ name, label, value: v.values[name], errors: v.errors, ...extra });
  return {
    title: t('correction.title', { number: v.invoiceNumber }),
    nav: 'invoices',
    body: (
      ctx,
    ) => html`<p class="breadcrumb"><a href="/app/invoices/${v.invoiceId}">${t('correction.breadcrumb', { number: v.invoiceNumber })}</a></p>
      <h1>${t('correction.title', { number: v.invoiceNumber })}</h1>
      <p>${t('correction.lead')}</p>
      ${v.reactivates ? html`<p class="notice" data-testid="reactivation-lead">${t('correction.reactivates')}</p>` : ''}
      ${v.refusal ? html`<div class="notice notice--error" role="alert"><p>${v.refusal}</p></div>` : ''}
      ${errorSummary(v.errors)}
      <form method="post" action="/app/invoices/${v.invoiceId}/correct" class="stack" novalidate>
        ${csrfField(ctx)}
        <dl class="facts"><dt>${t('correction.number')}</dt><dd><code>${v.invoiceNumber}</code></dd><dt>${t('correction.date')}</dt><dd>${formatInvoiceDate(v.invoiceDate)}</dd></dl>
        ${selectField({ name: 'invoice_type', label: t('correction.type'), value: v.values.invoice_type, options: [...NORMAL_TYPES, ...CORRECTIVE_TYPES].map((ty) => [ty, typeLabel(ty)] as const), errors: v.errors })}
        ${field('description', t('correction.description'))}
        ${field('operation_date', t('correction.operationDate'), { type: 'date', hint: t('correction.operationDateHint') })}
        <fieldset data-recipient-check="/app/tax-ids/check" data-text-checking="${t('taxIds.checking')}"><legend>${t('correction.recipient')}</legend>
          ${field('recipient.name', t('correction.recipientName'))}
          ${field('recipient.nif', 'NIF', { hint: t('correction.recipientNifHint') })}
          <p class="recipient-check" data-recipient-check-output data-testid="recipient-check" aria-live="polite"></p>
          ${field('recipient.country', t('correction.country'), { hint: t('correction.countryHint') })}
          ${field('recipient.id_type', t('correction.idType'))}
          ${field('recipient.id', t('correction.id'))}
        </fieldset>
        <fieldset><legend>${t('correction.breakdown')}</legend>
          ${v.errors.breakdown ? html`<p class="field-error">${v.errors.breakdown}</p>` : ''}
          ${linesTable(v.values, v.errors)}
        </fieldset>
        <fieldset><legend>${t('correction.corrective')}</legend>
          ${selectField({
            name: 'rectification_type',
            label: t('correction.method'),
            value: v.values.rectification_type,
            options: [
              ['', '—'],
              ['S', t('correction.methodS')],
              ['I', t('correction.methodI')],
            ],
            errors: v.errors,
          })}
          ${field('rectified_base_amount', t('correction.correctedBase'))}
          ${field('rectified_tax_amount', t('correction.correctedTax'))}
          <div class="field">
            <label for="field-corrected_invoices">${t('correction.correctedInvoices')} <span class="muted">${t('correction.correctedInvoicesHint')}</span></label>
            ${v.errors.corrected_invoices ? html`<p class="field-error">${v.errors.corrected_invoices}</p>` : ''}
            <textarea id="field-corrected_invoices" name="corrected_invoices" rows="3">${v.values.corrected_invoices ?? ''}</textarea>
          </div>
        </fieldset>
        ${field('total_tax_amount', t('correction.totalTax'))}
        ${field('total_amount', t('correction.total'))}
        <div class="actions">
          <button type="submit" class="button">${t('correction.submit')}</button>
          <a href="/app/invoices/${v.invoiceId}" class="button button--secondary">${t('correction.back')}</a>
        </div>
      </form>`,
  };
}
