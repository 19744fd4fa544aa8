import type { SystemRow } from '@vf/db/src/stores';
import { errorSummary, type FormErrors } from '../html/form-fields';
import { formatDateTime } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { csrfField } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { systemFields, type SystemFormValues } from './system-form';

export function systemNewPage(o: { values: SystemFormValues; errors?: FormErrors }): Page {
  const errors = o.errors ?? {};
  return {
    title: 'Add a computer system',
    nav: 'systems',
    body: (ctx) => html`<p class="breadcrumb"><a href="/app/systems">Computer systems</a></p>
      <h1>Add a computer system</h1>
      ${errorSummary(errors)}
      <form method="post" action="/app/systems" class="stack card" novalidate>
        ${csrfField(ctx)}
        ${systemFields(o.values, errors)}
        <div class="actions"><button type="submit" class="button">Add system</button><a href="/app/systems">Cancel</a></div>
      </form>`,
  };
}

export function systemDetailPage(o: { system: SystemRow; values: SystemFormValues; errors?: FormErrors; notice: SafeHtml; deleteRefused?: string }): Page {
  const errors = o.errors ?? {};
  const s = o.system;
  return {
    title: s.name,
    nav: 'systems',
    body: (ctx) => html`<p class="breadcrumb"><a href="/app/systems">Computer systems</a></p>
      <h1>${s.name} <span class="muted">${s.version}</span></h1>
      ${o.notice}
      <section class="card" aria-labelledby="summary-title">
        <h2 id="summary-title" class="visually-hidden">Summary</h2>
        <dl class="facts">
          <dt>Id (computer_system_id)</dt><dd><code>${s.id}</code></dd>
          <dt>Last changed</dt><dd>${formatDateTime(s.updatedAt)}</dd>
        </dl>
        <p class="hint">Changes apply to invoices registered from now on; registered invoices keep the system details they were sent with.</p>
      </section>
      <section class="card" aria-labelledby="edit-title">
        <h2 id="edit-title">Details</h2>
        ${errorSummary(errors)}
        <form method="post" action="/app/systems/${s.id}" class="stack" novalidate>
          ${csrfField(ctx)}
          ${systemFields(o.values, errors)}
          <div class="actions"><button type="submit" class="button">Save changes</button></div>
        </form>
      </section>
      <section class="card" aria-labelledby="delete-title">
        <h2 id="delete-title">Delete</h2>
        ${o.deleteRefused ? html`<div class="notice notice--error" role="alert"><p>${o.deleteRefused}</p></div>` : ''}
        <p>A system can be deleted only while no registered invoice refers to it: invoices must keep naming the software that produced them, so the service refuses (the API answers 409 Conflict).</p>
        <form method="post" action="/app/systems/${s.id}/delete" data-confirm="Delete ${s.name}? This cannot be undone.">
          ${csrfField(ctx)}<button type="submit" class="button button--danger">Delete system</button>
        </form>
      </section>`,
  };
}
