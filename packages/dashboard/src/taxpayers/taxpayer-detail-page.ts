import type { TaxpayerView } from '@vf/db';
import type { CertificateWarning } from '@vf/contract';
import { errorSummary, type FormErrors } from '../html/form-fields';
import { formatCount, formatDateTime } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { csrfField, type PageContext } from '../html/layout';
import { environmentBadge } from '../html/status-badge';
import type { Page } from '../http/page-renderer';
import { locale, t } from '../i18n/i18n';
import { tHtml } from '../i18n/t-html';
import { signingModeBadge } from './signing-mode';
import { operatingModeSection } from './operating-mode-section';
import { certificateFields, taxpayerFields, type TaxpayerFormValues } from './taxpayer-form';
import { testInvoicePanel, type TestInvoicePanelView } from '../sandbox/test-invoice-panel';

export interface TaxpayerDetailView {
  taxpayer: TaxpayerView;
  now: Date;
  /** What the API warns of about the certificate, and how many days before expiry it starts to. */
  warnings: CertificateWarning[];
  expiryWarningDays: number;
  notice: SafeHtml;
  /** Values and errors of whichever form was just submitted and refused. */
  edit?: { values: TaxpayerFormValues; errors: FormErrors };
  certificateErrors?: FormErrors;
  deleteRefused?: string;
  /** A sandbox taxpayer's test invoice panel (none for a production taxpayer). */
  testInvoice?: TestInvoicePanelView;
  /** Why a change of mode was refused. */
  modeRefused?: string;
  /** Today in Europe/Madrid (YYYY-MM-DD): whether a declared end of VERI*FACTU is in effect. */
  today: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A certificate warning in the reader's language (the API's message is English). */
function certificateWarningText(w: { code: string; message: string }, tp: TaxpayerView, now: Date): string {
  if (locale() === 'en') return w.message;
  const until = tp.certificateNotAfter;
  return t(`taxpayers.certificateWarning.${w.code}`, {
    certificateNif: tp.certificateNif ?? '',
    nif: tp.nif,
    days: until ? Math.floor((until.getTime() - now.getTime()) / DAY_MS) : 0,
    until: formatDateTime(until),
    from: formatDateTime(tp.certificateNotBefore),
  });
}

function certificateSection(ctx: PageContext, v: TaxpayerDetailView): SafeHtml {
  const tp = v.taxpayer;
  const errors = v.certificateErrors ?? {};
  const warnings = v.warnings;
  const current = tp.certificateSource
    ? html`<dl class="facts">
        <dt>${t('taxpayers.subject')}</dt><dd>${tp.certificateSubject ?? '—'}</dd>
        <dt>${t('taxpayers.holderNif')}</dt><dd>${tp.certificateNif ?? t('taxpayers.notInCertificate')}</dd>
        <dt>${t('taxpayers.validFrom')}</dt><dd>${formatDateTime(tp.certificateNotBefore)}</dd>
        <dt>${t('taxpayers.validUntilLabel')}</dt><dd>${formatDateTime(tp.certificateNotAfter)}</dd>
        ${tp.certificatePath ? html`<dt>${t('taxpayers.serverPath')}</dt><dd><code>${tp.certificatePath}</code></dd>` : ''}
      </dl>
      ${warnings.map((w) => html`<div class="notice notice--warn"><p>${certificateWarningText(w, tp, v.now)}</p></div>`)}
      <form method="post" action="/app/taxpayers/${tp.id}/certificate/remove" data-confirm="${t('taxpayers.removeConfirm')}">
        ${csrfField(ctx)}<button type="submit" class="button button--secondary">${t('taxpayers.remove')}</button>
      </form>`
    : html`<p>${tHtml('taxpayers.collaboratorMode')}</p>`;
  return html`<section class="card" aria-labelledby="certificate-title">
    <h2 id="certificate-title">${t('taxpayers.certificate')}</h2>
    ${current}
    <h3>${tp.certificateSource ? t('taxpayers.replace') : t('taxpayers.upload')}</h3>
    ${errorSummary(errors)}
    <form method="post" action="/app/taxpayers/${tp.id}/certificate" enctype="multipart/form-data" class="stack" novalidate>
      ${csrfField(ctx)}
      ${certificateFields(errors, { optional: false })}
      <div class="actions"><button type="submit" class="button">${t('taxpayers.checkAndSave')}</button></div>
    </form>
  </section>`;
}

function deleteSection(ctx: PageContext, v: TaxpayerDetailView): SafeHtml {
  const tp = v.taxpayer;
  const refusal = v.deleteRefused ? html`<div class="notice notice--error" role="alert"><p>${v.deleteRefused}</p></div>` : '';
  if (tp.chainLength > 0) {
    return html`<section class="card" aria-labelledby="delete-title">
      <h2 id="delete-title">${t('taxpayers.deleteTitle')}</h2>
      ${refusal}
      <p>${t('taxpayers.cannotDelete', { count: tp.chainLength, formatted: formatCount(tp.chainLength) })}</p>
    </section>`;
  }
  return html`<section class="card" aria-labelledby="delete-title">
    <h2 id="delete-title">${t('taxpayers.deleteTitle')}</h2>
    ${refusal}
    <p>${t('taxpayers.canDelete')}</p>
    <form method="post" action="/app/taxpayers/${tp.id}/delete" data-confirm="${t('taxpayers.deleteConfirm', { name: tp.name })}">
      ${csrfField(ctx)}<button type="submit" class="button button--danger">${t('taxpayers.delete')}</button>
    </form>
  </section>`;
}

export function taxpayerDetailPage(v: TaxpayerDetailView): Page {
  const tp = v.taxpayer;
  const values = v.edit?.values ?? { nif: tp.nif, name: tp.name, isProduction: tp.isProduction };
  const errors = v.edit?.errors ?? {};
  return {
    title: tp.name,
    nav: 'taxpayers',
    body: (ctx) => html`<p class="breadcrumb"><a href="/app/taxpayers">${t('taxpayers.title')}</a></p>
      <div class="page-header"><h1>${tp.name}</h1><div class="actions">${environmentBadge(tp.isProduction)} ${signingModeBadge(tp, v.now, v.expiryWarningDays)}</div></div>
      ${v.notice}
      <section class="card" aria-labelledby="summary-title">
        <h2 id="summary-title" class="visually-hidden">${t('taxpayers.summary')}</h2>
        <dl class="facts">
          <dt>NIF</dt><dd><code>${tp.nif}</code></dd>
          <dt>${t('taxpayers.recordsInChain')}</dt><dd>${formatCount(tp.chainLength)} · <a href="/app/taxpayers/${tp.id}/chain">${t('taxpayers.chainLink')}</a> · <a href="/app/invoices?taxpayer_id=${tp.id}">${t('taxpayers.invoicesLink')}</a> · <a href="/app/corrective-invoices?taxpayer_id=${tp.id}">${t('taxpayers.correctiveLink')}</a></dd>
          <dt>${t('taxpayers.latestRecord')}</dt><dd>${formatDateTime(tp.lastRecordAt)}</dd>
          <dt>Id (taxpayer_id)</dt><dd><code>${tp.id}</code></dd>
        </dl>
      </section>
      <section class="card" aria-labelledby="edit-title">
        <h2 id="edit-title">${t('taxpayers.details')}</h2>
        ${errorSummary(errors)}
        <form method="post" action="/app/taxpayers/${tp.id}" class="stack" novalidate>
          ${csrfField(ctx)}
          ${taxpayerFields(values, errors, { nifLocked: tp.chainLength > 0 })}
          <div class="actions"><button type="submit" class="button">${t('taxpayers.save')}</button></div>
        </form>
      </section>
      ${v.testInvoice ? testInvoicePanel(ctx, tp.id, v.testInvoice) : ''}
      ${operatingModeSection(ctx, tp, v.today, v.modeRefused)}
      ${certificateSection(ctx, v)}
      ${deleteSection(ctx, v)}`,
  };
}
