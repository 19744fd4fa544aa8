import { formatDateTime } from '../html/format';
import { html } from '../html/html';
import { csrfField } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { newKeyPanel } from './new-key-panel';

export function apiKeyPage(o: { hint: string; createdAt: Date; newKey?: string }): Page {
  return {
    title: 'API key',
    nav: 'api-key',
    body: (ctx) => html`<h1>API key</h1>
      ${o.newKey ? html`<div class="notice notice--success" role="status"><p>A new key was issued. The previous key stopped working at that moment.</p></div>${newKeyPanel(o.newKey)}` : ''}
      <section class="card" aria-labelledby="current-key-title">
        <h2 id="current-key-title">Current key</h2>
        <dl class="facts">
          <dt>Starts with</dt><dd><code data-testid="api-key-hint">${o.hint}</code></dd>
          <dt>Issued</dt><dd>${formatDateTime(o.createdAt)}</dd>
        </dl>
      </section>
      <section class="card" aria-labelledby="regenerate-title">
        <h2 id="regenerate-title">Regenerate the key</h2>
        <p>Do this if the key was lost or may have leaked. The current key stops working <strong>at once</strong>: update every program that uses it with the new one.</p>
        <form method="post" action="/app/api-key/regenerate" data-confirm="Issue a new API key? The current key will stop working immediately.">
          ${csrfField(ctx)}
          <button type="submit" class="button button--danger">Regenerate API key</button>
        </form>
      </section>`,
  };
}
