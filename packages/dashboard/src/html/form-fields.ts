import { t } from '../i18n/i18n';
import { html, type SafeHtml } from './html';

/** Field name -> plain message saying what is wrong and how to fix it. */
export type FormErrors = Record<string, string>;

const fieldId = (name: string) => `field-${name.replace(/[^a-z0-9_-]/gi, '-')}`;

/** Lists every problem at the top of the form, each linking to its field; the script focuses it on load. */
export function errorSummary(errors: FormErrors): SafeHtml {
  const entries = Object.entries(errors);
  if (entries.length === 0) return html``;
  return html`<div class="error-summary" role="alert" tabindex="-1" aria-labelledby="error-summary-title">
    <h2 id="error-summary-title">${entries.length === 1 ? t('form.problemOne') : t('form.problemMany', { count: entries.length })}</h2>
    <ul>${entries.map(([name, message]) => html`<li><a href="#${fieldId(name)}">${message}</a></li>`)}</ul>
  </div>`;
}

export interface InputOptions {
  name: string;
  label: string;
  value?: string | null;
  type?: 'text' | 'email' | 'password' | 'search' | 'date' | 'file';
  hint?: string;
  errors?: FormErrors;
  required?: boolean;
  /** Says "(optional)" after the label of a field that is not required; filters turn it off. */
  markOptional?: boolean;
  autocomplete?: string;
  /** Extra attributes, already safe (e.g. maxlength, accept, inputmode). */
  attrs?: SafeHtml;
}

function described(name: string, hint: string | undefined, error: string | undefined): SafeHtml {
  const ids = [hint ? `${fieldId(name)}-hint` : '', error ? `${fieldId(name)}-error` : ''].filter(Boolean).join(' ');
  return ids ? html` aria-describedby="${ids}"` : html``;
}

function hintAndError(name: string, hint: string | undefined, error: string | undefined): SafeHtml {
  return html`${hint ? html`<p class="hint" id="${fieldId(name)}-hint">${hint}</p>` : ''}${
    error
      ? html`<p class="field-error" id="${fieldId(name)}-error"><span class="visually-hidden">${t('form.errorPrefix')}</span>${error}</p>`
      : ''
  }`;
}

export function inputField(o: InputOptions): SafeHtml {
  const error = o.errors?.[o.name];
  const id = fieldId(o.name);
  return html`<div class="field">
    <label for="${id}">${o.label}${o.required || o.markOptional === false ? '' : html` <span class="muted">${t('form.optional')}</span>`}</label>
    ${hintAndError(o.name, o.hint, error)}
    <input id="${id}" name="${o.name}" type="${o.type ?? 'text'}"${o.type === 'file' || o.type === 'password' ? '' : html` value="${o.value ?? ''}"`}${
      o.required ? html` required` : ''
    }${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ''}${error ? html` aria-invalid="true"` : ''}${described(o.name, o.hint, error)}${o.attrs ?? ''}>
  </div>`;
}

export interface SelectOptions {
  name: string;
  label: string;
  value?: string;
  options: ReadonlyArray<readonly [value: string, label: string]>;
  errors?: FormErrors;
}

export function selectField(o: SelectOptions): SafeHtml {
  const error = o.errors?.[o.name];
  const id = fieldId(o.name);
  return html`<div class="field">
    <label for="${id}">${o.label}</label>
    ${hintAndError(o.name, undefined, error)}
    <select id="${id}" name="${o.name}"${error ? html` aria-invalid="true"` : ''}${described(o.name, undefined, error)}>
      ${o.options.map(([value, label]) => html`<option value="${value}"${value === (o.value ?? '') ? html` selected` : ''}>${label}</option>`)}
    </select>
  </div>`;
}

export function checkboxField(o: { name: string; label: string; checked: boolean; hint?: string; errors?: FormErrors }): SafeHtml {
  const error = o.errors?.[o.name];
  const id = fieldId(o.name);
  return html`<div class="field">
    <div class="check">
      <input id="${id}" name="${o.name}" type="checkbox" value="true"${o.checked ? html` checked` : ''}${described(o.name, o.hint, error)}>
      <label for="${id}">${o.label}</label>
    </div>
    ${hintAndError(o.name, o.hint, error)}
  </div>`;
}
