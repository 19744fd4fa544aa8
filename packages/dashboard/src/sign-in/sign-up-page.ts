import { html } from '../html/html';
import { errorSummary, inputField, type FormErrors } from '../html/form-fields';
import { csrfField } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { formatCount } from '../html/format';
import { t } from '../i18n/i18n';
import { tHtml } from '../i18n/t-html';
import { newKeyPanel } from '../api-key/new-key-panel';

export function signUpPage(o: { name?: string; email?: string; errors?: FormErrors }): Page {
  const errors = o.errors ?? {};
  return {
    title: t('signUp.title'),
    narrow: true,
    body: (ctx) => html`<h1>${t('signUp.title')}</h1>
      <p class="lead">${t('signUp.lead')}</p>
      ${errorSummary(errors)}
      <form method="post" action="/signup" class="stack card" novalidate>
        ${csrfField(ctx)}
        ${inputField({ name: 'name', label: t('signUp.name'), value: o.name, errors, required: true, autocomplete: 'name', attrs: html` maxlength="120"` })}
        ${inputField({ name: 'email', label: t('signIn.email'), type: 'email', value: o.email, errors, required: true, autocomplete: 'email' })}
        ${inputField({ name: 'password', label: t('signIn.password'), type: 'password', hint: t('signUp.passwordHint'), errors, required: true, autocomplete: 'new-password' })}
        ${inputField({ name: 'password_confirmation', label: t('signUp.repeat'), type: 'password', errors, required: true, autocomplete: 'new-password' })}
        <div class="actions"><button type="submit" class="button">${t('signUp.submit')}</button></div>
      </form>
      <p>${tHtml('signUp.haveAccount')}</p>`,
  };
}

export function accountCreatedPage(o: { name: string; plan: string; monthlyQuota: number; apiKey: string }): Page {
  return {
    title: t('signUp.welcomeTitle'),
    body: () => html`<h1>${t('signUp.welcome', { name: o.name })}</h1>
      <div class="notice notice--success" role="status"><p>${tHtml('signUp.ready', { plan: o.plan, quota: formatCount(o.monthlyQuota) })}</p></div>
      ${newKeyPanel(o.apiKey)}
      <h2>${t('signUp.nextSteps')}</h2>
      <ol>
        <li>${tHtml('signUp.stepTaxpayer')}</li>
        <li>${tHtml('signUp.stepSystem')}</li>
        <li>${tHtml('signUp.stepInvoices')}</li>
      </ol>
      <p><a class="button" href="/app">${t('errorPage.toOverview')}</a></p>`,
  };
}
