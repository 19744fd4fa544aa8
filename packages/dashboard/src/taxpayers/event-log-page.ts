import type { StoredEvent, TaxpayerView } from '@vf/db';
import { html } from '../html/html';
import type { Page } from '../http/page-renderer';
import { t } from '../i18n/i18n';

/** A taxpayer's event log, newest first, each event with its signed XML to download. */
export function eventLogPage(v: { taxpayer: TaxpayerView; events: StoredEvent[] }): Page {
  const tp = v.taxpayer;
  const rows = v.events.map(
    (e) => html`<tr data-testid="event-row" data-type="${e.type}">
      <td data-label="${t('events.colSeq')}">${String(e.seq)}</td>
      <td data-label="${t('events.colType')}">${e.type} · ${t(`events.type.${e.type}`)}</td>
      <td data-label="${t('events.colDate')}"><code>${e.generatedAtLiteral}</code></td>
      <td data-label="${t('events.colHash')}"><code title="${e.hash}">${e.hash.slice(0, 16)}…</code></td>
      <td><a href="/app/taxpayers/${tp.id}/events/${e.id}/xml" download>${t('events.download')}</a></td>
    </tr>`,
  );
  return {
    title: t('events.title'),
    nav: 'taxpayers',
    body: () => html`<p class="breadcrumb"><a href="/app/taxpayers">${t('taxpayers.title')}</a> › <a href="/app/taxpayers/${tp.id}">${tp.name}</a></p>
      <h1>${t('events.title')}</h1>
      <p class="lead">${t('events.lead')}</p>
      ${
        rows.length === 0
          ? html`<p>${t('events.none')}</p>`
          : html`<table class="responsive" data-testid="event-log"><thead><tr><th>${t('events.colSeq')}</th><th>${t('events.colType')}</th><th>${t('events.colDate')}</th><th>${t('events.colHash')}</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
      }`,
  };
}
