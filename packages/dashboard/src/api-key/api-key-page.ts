import { formatDateTime } from '../html/format';
import { html } from '../html/html';
import { csrfField } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { tHtml } from '../i18n/t-html';
import { newKeyPanel } from './new-key-panel';

export function apiKeyPage(o: { hint: string; createdAt: Date; newKey?: string }): Page {
  return {
    title: t('apiKey.title'),
    nav: 'api-key',
    body: (ctx) => html`<h1>${t('apiKey.title')}</h1>
      ${o.newKey ? html`<div class="notice notice--success" role="status"><p>${t('apiKey.issued')}</p></div>${newKeyPanel(o.newKey)}` : ''}
      <section class="card" aria-labelledby="current-key-title">
        <h2 id="current-key-title">${t('apiKey.current')}</h2>
        <dl class="facts">
          <dt>${t('apiKey.startsWith')}</dt><dd><code data-testid="api-key-hint">${o.hint}</code></dd>
          <dt>${t('apiKey.issuedAt')}</dt><dd>${formatDateTime(o.createdAt)}</dd>
        </dl>
      </section>
      <section class="card" aria-labelledby="regenerate-title">
        <h2 id="regenerate-title">${t('apiKey.regenerateTitle')}</h2>
        <p>${tHtml('apiKey.regenerateBody')}</p>
        <form method="post" action="/app/api-key/regenerate" data-confirm="${t('apiKey.confirm')}">
          ${csrfField(ctx)}
          <button type="submit" class="button button--danger">${t('apiKey.regenerate')}</button>
        </form>
      </section>`,
  };
}
