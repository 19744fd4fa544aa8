import { errorSummary, inputField, selectField, type FormErrors } from '../html/form-fields';
import { html, type SafeHtml } from '../html/html';
import { csrfField } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { LINE_FIELDS, lineCount, MAX_FORM_LINES, type CorrectionValues } from './correction-form';
import { CORRECTIVE_TYPES, NORMAL_TYPES, typeLabel } from './invoice-kinds';

export interface CorrectionPageView {
  invoiceId: string;
  invoiceNumber: string;
  invoiceDate: string;
  values: CorrectionValues;
  errors: FormErrors;
  /** Why the correction cannot be made now (409), in words. */
  refusal?: string;
}

const LINE_LABELS: Record<(typeof LINE_FIELDS)[number], string> = {
  tax_type: 'Impuesto · Tax',
  regime_type: 'Régimen · Regime',
  operation_type: 'Operación · Operation',
  base_amount: 'Base',
  tax_rate: 'Tipo % · Rate %',
  tax_amount: 'Cuota · Tax amount',
  surcharge_rate: 'Recargo % · Surcharge %',
  surcharge_amount: 'Recargo · Surcharge',
};

function linesTable(values: CorrectionValues, errors: FormErrors): SafeHtml {
  // Room for one more line than the invoice has, up to the form's limit.
  const rows = Math.min(MAX_FORM_LINES, lineCount(values) + 1);
  return html`<table class="responsive form-lines">
    <thead><tr>${LINE_FIELDS.map((f) => html`<th scope="col">${LINE_LABELS[f]}</th>`)}</tr></thead>
    <tbody>${Array.from(
      { length: rows },
      (_, n) => html`<tr>${LINE_FIELDS.map((f) => {
        const name = `breakdown.${n}.${f}`;
        const error = errors[name];
        return html`<td data-label="${LINE_LABELS[f]}"><input id="field-${name.replace(/\./g, '-')}" name="${name}" value="${values[name] ?? ''}" aria-label="${LINE_LABELS[f]}, línea ${n + 1}"${
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
    title: `Corregir factura ${v.invoiceNumber}`,
    nav: 'invoices',
    body: (ctx) => html`<p class="breadcrumb"><a href="/app/invoices/${v.invoiceId}">Factura · Invoice ${v.invoiceNumber}</a></p>
      <h1>Corregir factura ${v.invoiceNumber} <span class="muted">· Correct invoice</span></h1>
      <p>La corrección (subsanación) se añade a la cadena como un registro nuevo y se envía a la AEAT; el registro anterior se conserva.
        El número, la fecha y el contribuyente no cambian. <span class="muted">The correction is a new record of the chain, sent to the
        authority; the earlier record stays. Number, date and taxpayer stay as they are.</span></p>
      ${v.refusal ? html`<div class="notice notice--error" role="alert"><p>${v.refusal}</p></div>` : ''}
      ${errorSummary(v.errors)}
      <form method="post" action="/app/invoices/${v.invoiceId}/correct" class="stack" novalidate>
        ${csrfField(ctx)}
        <dl class="facts"><dt>Número · Number</dt><dd><code>${v.invoiceNumber}</code></dd><dt>Fecha · Date</dt><dd>${v.invoiceDate}</dd></dl>
        ${selectField({ name: 'invoice_type', label: 'Tipo · Type', value: v.values.invoice_type, options: [...NORMAL_TYPES, ...CORRECTIVE_TYPES].map((ty) => [ty, typeLabel(ty)] as const), errors: v.errors })}
        ${field('description', 'Descripción · Description')}
        ${field('operation_date', 'Fecha de operación · Operation date', { type: 'date', hint: 'Solo si difiere de la fecha de expedición · Only if it differs from the issue date.' })}
        <fieldset><legend>Destinatario · Recipient</legend>
          ${field('recipient.name', 'Nombre o razón social · Name')}
          ${field('recipient.nif', 'NIF', { hint: 'Destinatario español · Spanish recipient.' })}
          ${field('recipient.country', 'País · Country', { hint: 'Solo para un destinatario extranjero (IDOtro) · Foreign recipient only.' })}
          ${field('recipient.id_type', 'Tipo de identificación · ID type')}
          ${field('recipient.id', 'Identificación · ID')}
        </fieldset>
        <fieldset><legend>Desglose · Breakdown</legend>
          ${v.errors.breakdown ? html`<p class="field-error">${v.errors.breakdown}</p>` : ''}
          ${linesTable(v.values, v.errors)}
        </fieldset>
        <fieldset><legend>Rectificativa · Corrective invoice (R1–R5)</legend>
          ${selectField({
            name: 'rectification_type',
            label: 'Tipo de rectificación · Correction method',
            value: v.values.rectification_type,
            options: [
              ['', '—'],
              ['S', 'S · por sustitución · by substitution'],
              ['I', 'I · por diferencias · by differences'],
            ],
            errors: v.errors,
          })}
          ${field('rectified_base_amount', 'Base rectificada · Corrected base')}
          ${field('rectified_tax_amount', 'Cuota rectificada · Corrected tax')}
          <div class="field">
            <label for="field-corrected_invoices">Facturas rectificadas · Corrected invoices <span class="muted">(una por línea: número y fecha AAAA-MM-DD)</span></label>
            ${v.errors.corrected_invoices ? html`<p class="field-error">${v.errors.corrected_invoices}</p>` : ''}
            <textarea id="field-corrected_invoices" name="corrected_invoices" rows="3">${v.values.corrected_invoices ?? ''}</textarea>
          </div>
        </fieldset>
        ${field('total_tax_amount', 'Cuota total · Total tax')}
        ${field('total_amount', 'Importe total · Total')}
        <div class="actions">
          <button type="submit" class="button">Enviar corrección · Send correction</button>
          <a href="/app/invoices/${v.invoiceId}" class="button button--secondary">Cancelar · Back</a>
        </div>
      </form>`,
  };
}
