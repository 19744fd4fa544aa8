import type { TaxpayerView } from '@vf/db/src/stores';
import { certificateWarnings } from '../../taxpayers/taxpayer-view';
import { errorSummary, type FormErrors } from '../html/form-fields';
import { formatDateTime } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { csrfField, type PageContext } from '../html/layout';
import { environmentBadge } from '../html/status-badge';
import type { Page } from '../http/page-renderer';
import { signingModeBadge } from './signing-mode';
import { certificateFields, taxpayerFields, type TaxpayerFormValues } from './taxpayer-form';

export interface TaxpayerDetailView {
  taxpayer: TaxpayerView;
  now: Date;
  notice: SafeHtml;
  /** Values and errors of whichever form was just submitted and refused. */
  edit?: { values: TaxpayerFormValues; errors: FormErrors };
  certificateErrors?: FormErrors;
  deleteRefused?: string;
}

function certificateSection(ctx: PageContext, v: TaxpayerDetailView): SafeHtml {
  const t = v.taxpayer;
  const errors = v.certificateErrors ?? {};
  const warnings = certificateWarnings(t, v.now);
  const current = t.certificateSource
    ? html`<dl class="facts">
        <dt>Subject</dt><dd>${t.certificateSubject ?? '—'}</dd>
        <dt>Holder NIF</dt><dd>${t.certificateNif ?? 'not found in the certificate'}</dd>
        <dt>Valid from</dt><dd>${formatDateTime(t.certificateNotBefore)}</dd>
        <dt>Valid until</dt><dd>${formatDateTime(t.certificateNotAfter)}</dd>
        ${t.certificatePath ? html`<dt>Server path</dt><dd><code>${t.certificatePath}</code></dd>` : ''}
      </dl>
      ${warnings.map((w) => html`<div class="notice notice--warn"><p>${w.message}</p></div>`)}
      <form method="post" action="/app/taxpayers/${t.id}/certificate/remove" data-confirm="Remove the certificate? The platform will then sign for this taxpayer as social collaborator.">
        ${csrfField(ctx)}<button type="submit" class="button button--secondary">Remove certificate, use social-collaborator mode</button>
      </form>`
    : html`<p><strong>Social-collaborator mode.</strong> No certificate of this taxpayer is stored: the platform signs and sends its records with the platform's own certificate, as a social collaborator of the tax authority. The taxpayer must have granted the platform that representation.</p>`;
  return html`<section class="card" aria-labelledby="certificate-title">
    <h2 id="certificate-title">Certificate</h2>
    ${current}
    <h3>${t.certificateSource ? 'Replace the certificate' : 'Upload a certificate'}</h3>
    ${errorSummary(errors)}
    <form method="post" action="/app/taxpayers/${t.id}/certificate" enctype="multipart/form-data" class="stack" novalidate>
      ${csrfField(ctx)}
      ${certificateFields(errors, { optional: false })}
      <div class="actions"><button type="submit" class="button">Check and save certificate</button></div>
    </form>
  </section>`;
}

function deleteSection(ctx: PageContext, v: TaxpayerDetailView): SafeHtml {
  const t = v.taxpayer;
  const refusal = v.deleteRefused ? html`<div class="notice notice--error" role="alert"><p>${v.deleteRefused}</p></div>` : '';
  if (t.chainLength > 0) {
    return html`<section class="card" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete</h2>
      ${refusal}
      <p>This taxpayer cannot be deleted: it has ${t.chainLength.toLocaleString('en-GB')} registered record${t.chainLength === 1 ? '' : 's'}. Registered invoices and their hash chain must be kept, so the service refuses to delete a taxpayer that has any (the API answers 409 Conflict).</p>
    </section>`;
  }
  return html`<section class="card" aria-labelledby="delete-title">
    <h2 id="delete-title">Delete</h2>
    ${refusal}
    <p>This taxpayer has no registered invoices, so it can be deleted. Once it has any, it can no longer be deleted.</p>
    <form method="post" action="/app/taxpayers/${t.id}/delete" data-confirm="Delete ${t.name}? This cannot be undone.">
      ${csrfField(ctx)}<button type="submit" class="button button--danger">Delete taxpayer</button>
    </form>
  </section>`;
}

export function taxpayerDetailPage(v: TaxpayerDetailView): Page {
  const t = v.taxpayer;
  const values = v.edit?.values ?? { nif: t.nif, name: t.name, isProduction: t.isProduction };
  const errors = v.edit?.errors ?? {};
  return {
    title: t.name,
    nav: 'taxpayers',
    body: (ctx) => html`<p class="breadcrumb"><a href="/app/taxpayers">Taxpayers</a></p>
      <div class="page-header"><h1>${t.name}</h1><div class="actions">${environmentBadge(t.isProduction)} ${signingModeBadge(t, v.now)}</div></div>
      ${v.notice}
      <section class="card" aria-labelledby="summary-title">
        <h2 id="summary-title" class="visually-hidden">Summary</h2>
        <dl class="facts">
          <dt>NIF</dt><dd><code>${t.nif}</code></dd>
          <dt>Records in chain</dt><dd>${t.chainLength.toLocaleString('en-GB')} · <a href="/app/taxpayers/${t.id}/chain">Chain and verification</a> · <a href="/app/invoices?taxpayer=${t.id}">Invoices</a> · <a href="/app/corrective-invoices?taxpayer=${t.id}">Corrective invoices</a></dd>
          <dt>Latest record</dt><dd>${formatDateTime(t.lastRecordAt)}</dd>
          <dt>Id (taxpayer_id)</dt><dd><code>${t.id}</code></dd>
        </dl>
      </section>
      <section class="card" aria-labelledby="edit-title">
        <h2 id="edit-title">Details</h2>
        ${errorSummary(errors)}
        <form method="post" action="/app/taxpayers/${t.id}" class="stack" novalidate>
          ${csrfField(ctx)}
          ${taxpayerFields(values, errors, { nifLocked: t.chainLength > 0 })}
          <div class="actions"><button type="submit" class="button">Save changes</button></div>
        </form>
      </section>
      ${certificateSection(ctx, v)}
      ${deleteSection(ctx, v)}`,
  };
}
