import type { TaxpayerView } from '@vf/db';
import { formatCount } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { environmentBadge } from '../html/status-badge';
import type { Page } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { tHtml } from '../i18n/t-html';
import { signingModeBadge } from './signing-mode';

export function taxpayerListPage(o: { taxpayers: TaxpayerView[]; now: Date; expiryWarningDays: number; notice: SafeHtml }): Page {
  return {
    title: t('taxpayers.title'),
    nav: 'taxpayers',
    body: () => html`<div class="page-header"><h1>${t('taxpayers.title')}</h1><a class="button" href="/app/taxpayers/new">${t('taxpayers.add')}</a></div>
      ${o.notice}
      <p class="lead">${t('taxpayers.lead')}</p>
      ${
        o.taxpayers.length === 0
          ? html`<p class="empty">${tHtml('taxpayers.none')}</p>`
          : html`<table class="responsive">
        <thead><tr><th scope="col">${t('taxpayers.colName')}</th><th scope="col">NIF</th><th scope="col">${t('taxpayers.colEnvironment')}</th><th scope="col">${t('taxpayers.colSigning')}</th><th scope="col" class="num">${t('taxpayers.colRecords')}</th><th scope="col">${t('taxpayers.colChain')}</th></tr></thead>
        <tbody>${o.taxpayers.map(
          (tp) => html`<tr>
            <td data-label="${t('taxpayers.colName')}"><a href="/app/taxpayers/${tp.id}">${tp.name}</a></td>
            <td data-label="NIF"><code>${tp.nif}</code></td>
            <td data-label="${t('taxpayers.colEnvironment')}">${environmentBadge(tp.isProduction)}</td>
            <td data-label="${t('taxpayers.colSigning')}">${signingModeBadge(tp, o.now, o.expiryWarningDays)}</td>
            <td class="num" data-label="${t('taxpayers.colRecords')}">${formatCount(tp.chainLength)}</td>
            <td data-label="${t('taxpayers.colChain')}"><a href="/app/taxpayers/${tp.id}/chain">${t('taxpayers.colChain')}<span class="visually-hidden">${t('taxpayers.chainOf', { name: tp.name })}</span></a></td>
          </tr>`,
        )}</tbody>
      </table>`
      }`,
  };
}
