import type { RemissionView, StoredEvent, SystemRow, TaxpayerView } from '@vf/db';
import type { IntegrityCheckReport } from '@vf/contract';
import { formatDateTime, formatInvoiceDate } from '../html/format';
import { errorSummary, inputField, selectField, type FormErrors } from '../html/form-fields';
import { html, type SafeHtml } from '../html/html';
import { csrfField, type PageContext } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { checkReport } from './check-report';

export type KeptForm = 'check' | 'export' | 'remission';

/** What the page shows: the taxpayer's systems able to keep records, its exports, remissions and a check's result. */
export interface KeptRecordsView {
  taxpayer: TaxpayerView;
  systems: SystemRow[];
  exports: StoredEvent[];
  remissions: Omit<RemissionView, 'messages'>[];
  /** The newest remission, message by message: how it progresses. */
  latest?: RemissionView;
  check?: IntegrityCheckReport;
  /** A form sent back with what was wrong, and what was typed. */
  refused?: { form: KeptForm; errors: FormErrors; values: Record<string, string> };
  notice?: SafeHtml;
}

function subjectFields(v: KeptRecordsView, values: Record<string, string>, errors: FormErrors): SafeHtml {
  return html`${selectField({
    name: 'subject',
    label: t('kept.subject'),
    value: values.subject ?? 'records',
    options: [
      ['records', t('kept.records')],
      ['events', t('kept.events')],
    ],
    errors,
  })}${selectField({
    name: 'system_id',
    label: t('kept.system'),
    value: values.system_id ?? '',
    options: [['', '—'] as const, ...v.systems.map((s) => [s.id, `${s.name} ${s.version} · ${s.installationNumber}`] as const)],
    errors,
  })}`;
}

function form(
  ctx: PageContext,
  v: KeptRecordsView,
  name: KeptForm,
  fields: (values: Record<string, string>, errors: FormErrors) => SafeHtml,
) {
  const refused = v.refused?.form === name ? v.refused : undefined;
  const values = refused?.values ?? {};
  const errors = refused?.errors ?? {};
  const label = { check: t('kept.check'), export: t('kept.export'), remission: t('kept.send') }[name];
  return html`<form method="post" action="/app/taxpayers/${v.taxpayer.id}/kept/${name}" class="stack" data-testid="${name}-form" novalidate>
    ${csrfField(ctx)}${errorSummary(errors)}${fields(values, errors)}
    <div class="actions"><button type="submit" class="button">${label}</button></div>
  </form>`;
}

function exportList(v: KeptRecordsView): SafeHtml {
  if (v.exports.length === 0) return html`<p>${t('kept.exportsNone')}</p>`;
  const rows = v.exports.map(
    (e) => html`<tr data-testid="export-row">
      <td data-label="${t('kept.colExport')}">${e.type} · ${t(`kept.exportKind.${e.type}`)}</td>
      <td data-label="${t('kept.colWhen')}">${formatDateTime(e.generatedAt)}</td>
      <td><a href="/app/taxpayers/${v.taxpayer.id}/events/${e.id}/xml" download>${t('kept.signedEvent')}</a></td>
    </tr>`,
  );
  return html`<table class="responsive" data-testid="exports"><thead><tr><th>${t('kept.colExport')}</th><th>${t('kept.colWhen')}</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

function remissionList(v: KeptRecordsView): SafeHtml {
  if (v.remissions.length === 0) return html`<p>${t('kept.remissionsNone')}</p>`;
  const rows = v.remissions.map((r) => {
    const answered =
      v.latest?.id === r.id
        ? v.latest.messages.filter((m) => m.status === 'answered').length
        : r.status === 'completed'
          ? r.messageCount
          : 0;
    return html`<tr data-testid="remission-row" data-status="${r.status}">
      <td data-label="${t('kept.colReference')}"><code>${r.reference}</code></td>
      <td data-label="${t('kept.colPeriod')}">${formatInvoiceDate(r.from)} – ${formatInvoiceDate(r.to)}</td>
      <td data-label="${t('kept.colStatus')}">${t(`kept.status.${r.status}`)}${
        r.status === 'failed'
          ? html`<br><span class="muted">${t('kept.failed', { code: r.errorCode ?? '', message: r.errorMessage ?? '' })}</span>`
          : ''
      }</td>
      <td data-label="${t('kept.colRecords')}">${String(r.recordCount)}</td>
      <td data-label="${t('kept.colProgress')}" data-testid="remission-progress">${t('kept.progress', { answered, total: r.messageCount })}</td>
    </tr>`;
  });
  return html`<table class="responsive" data-testid="remissions"><thead><tr><th>${t('kept.colReference')}</th><th>${t('kept.colPeriod')}</th>
    <th>${t('kept.colStatus')}</th><th>${t('kept.colRecords')}</th><th>${t('kept.colProgress')}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** A NO VERI*FACTU taxpayer's on-demand checks, exports and remissions on the authority's request. */
export function keptRecordsPage(v: KeptRecordsView): Page {
  const tp = v.taxpayer;
  const day = (name: string, label: string, values: Record<string, string>, errors: FormErrors) =>
    inputField({ name, label, type: 'date', value: values[name], required: true, errors });
  return {
    title: t('kept.title'),
    nav: 'taxpayers',
    body: (
      ctx,
    ) => html`<p class="breadcrumb"><a href="/app/taxpayers">${t('taxpayers.title')}</a> › <a href="/app/taxpayers/${tp.id}">${tp.name}</a></p>
      <h1>${t('kept.title')}</h1>
      <p class="lead">${t('kept.lead')}</p>
      ${v.notice ?? ''}
      <section class="card" aria-labelledby="check-title">
        <h2 id="check-title">${t('kept.checkTitle')}</h2>
        <p>${t('kept.checkLead')}</p>
        ${form(
          ctx,
          v,
          'check',
          (values, errors) =>
            html`${subjectFields(v, values, errors)}
          ${inputField({ name: 'from_seq', label: t('kept.fromSeq'), value: values.from_seq, hint: t('kept.rangeHint'), errors, attrs: html` inputmode="numeric"` })}
          ${inputField({ name: 'to_seq', label: t('kept.toSeq'), value: values.to_seq, errors, attrs: html` inputmode="numeric"` })}`,
        )}
      </section>
      ${v.check ? checkReport(v.check) : ''}
      <section class="card" aria-labelledby="export-title">
        <h2 id="export-title">${t('kept.exportTitle')}</h2>
        <p>${t('kept.exportLead')}</p>
        ${form(
          ctx,
          v,
          'export',
          (values, errors) =>
            html`${subjectFields(v, values, errors)}${day('from', t('kept.from'), values, errors)}${day('to', t('kept.to'), values, errors)}`,
        )}
        <h3>${t('kept.exportsTitle')}</h3>
        ${exportList(v)}
      </section>
      <section class="card" aria-labelledby="remission-title">
        <h2 id="remission-title">${t('kept.remissionTitle')}</h2>
        <p>${t('kept.remissionLead')}</p>
        ${form(
          ctx,
          v,
          'remission',
          (values, errors) =>
            html`${inputField({ name: 'requirement_reference', label: t('kept.reference'), value: values.requirement_reference, hint: t('kept.referenceHint'), required: true, errors, attrs: html` maxlength="18"` })}
          ${day('period_from', t('kept.periodFrom'), values, errors)}${day('period_to', t('kept.periodTo'), values, errors)}`,
        )}
        ${remissionList(v)}
        <p><a href="/app/taxpayers/${tp.id}/kept" class="button button--secondary">${t('kept.reload')}</a></p>
      </section>`,
  };
}
