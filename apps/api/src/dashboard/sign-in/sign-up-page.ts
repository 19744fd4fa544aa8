import { html } from '../html/html';
import { errorSummary, inputField, type FormErrors } from '../html/form-fields';
import { csrfField } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { newKeyPanel } from '../api-key/new-key-panel';

export function signUpPage(o: { name?: string; email?: string; errors?: FormErrors }): Page {
  const errors = o.errors ?? {};
  return {
    title: 'Create an account',
    narrow: true,
    body: (ctx) => html`<h1>Create an account</h1>
      <p class="lead">One account for the dashboard and the API. You get an API key at once, on the next page.</p>
      ${errorSummary(errors)}
      <form method="post" action="/signup" class="stack card" novalidate>
        ${csrfField(ctx)}
        ${inputField({ name: 'name', label: 'Your name or company', value: o.name, errors, required: true, autocomplete: 'name', attrs: html` maxlength="120"` })}
        ${inputField({ name: 'email', label: 'Email', type: 'email', value: o.email, errors, required: true, autocomplete: 'email' })}
        ${inputField({ name: 'password', label: 'Password', type: 'password', hint: 'At least 12 characters.', errors, required: true, autocomplete: 'new-password' })}
        ${inputField({ name: 'password_confirmation', label: 'Repeat the password', type: 'password', errors, required: true, autocomplete: 'new-password' })}
        <div class="actions"><button type="submit" class="button">Create account</button></div>
      </form>
      <p>Already have an account? <a href="/login">Sign in</a>.</p>`,
  };
}

export function accountCreatedPage(o: { name: string; plan: string; monthlyQuota: number; apiKey: string }): Page {
  return {
    title: 'Account created',
    body: () => html`<h1>Welcome, ${o.name}</h1>
      <div class="notice notice--success" role="status"><p>Your account is ready, on the <strong>${o.plan}</strong> plan (${o.monthlyQuota.toLocaleString('en-GB')} invoices a month).</p></div>
      ${newKeyPanel(o.apiKey)}
      <h2>Next steps</h2>
      <ol>
        <li><a href="/app/taxpayers/new">Add a taxpayer</a>: the company or person whose invoices you register.</li>
        <li><a href="/app/systems/new">Add your billing software</a> as a computer system.</li>
        <li>Register invoices with <code>POST /api/v1/invoices</code>; follow them under <a href="/app/invoices">Invoices</a>.</li>
      </ol>
      <p><a class="button" href="/app">Go to the overview</a></p>`,
  };
}
