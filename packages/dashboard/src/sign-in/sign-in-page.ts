import { html } from '../html/html';
import { errorSummary, inputField, type FormErrors } from '../html/form-fields';
import { csrfField } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { tHtml } from '../i18n/t-html';

export function signInPage(o: { email?: string; next?: string; errors?: FormErrors; notice?: string }): Page {
  const errors = o.errors ?? {};
  return {
    title: t('signIn.title'),
    narrow: true,
    body: (ctx) => html`<h1>${t('signIn.title')}</h1>
      ${o.notice ? html`<div class="notice notice--success" role="status"><p>${o.notice}</p></div>` : ''}
      ${errorSummary(errors)}
      <form method="post" action="/login" class="stack card" novalidate>
        ${csrfField(ctx)}
        ${o.next ? html`<input type="hidden" name="next" value="${o.next}">` : ''}
        ${inputField({ name: 'email', label: t('signIn.email'), type: 'email', value: o.email, errors, required: true, autocomplete: 'username' })}
        ${inputField({ name: 'password', label: t('signIn.password'), type: 'password', errors, required: true, autocomplete: 'current-password' })}
        <div class="actions"><button type="submit" class="button">${t('signIn.submit')}</button></div>
      </form>
      <p>${tHtml('signIn.noAccount')}</p>`,
  };
}
