import { html } from '../html/html';
import { errorSummary, inputField, type FormErrors } from '../html/form-fields';
import { csrfField } from '../html/layout';
import type { Page } from '../http/page-renderer';

export function signInPage(o: { email?: string; next?: string; errors?: FormErrors; notice?: string }): Page {
  const errors = o.errors ?? {};
  return {
    title: 'Sign in',
    narrow: true,
    body: (ctx) => html`<h1>Sign in</h1>
      ${o.notice ? html`<div class="notice notice--success" role="status"><p>${o.notice}</p></div>` : ''}
      ${errorSummary(errors)}
      <form method="post" action="/login" class="stack card" novalidate>
        ${csrfField(ctx)}
        ${o.next ? html`<input type="hidden" name="next" value="${o.next}">` : ''}
        ${inputField({ name: 'email', label: 'Email', type: 'email', value: o.email, errors, required: true, autocomplete: 'username' })}
        ${inputField({ name: 'password', label: 'Password', type: 'password', errors, required: true, autocomplete: 'current-password' })}
        <div class="actions"><button type="submit" class="button">Sign in</button></div>
      </form>
      <p>No account yet? <a href="/signup">Create one</a>. It is the same account the API's <code>/auth/register</code> creates.</p>`,
  };
}
