import type { TaxpayerView } from '@vf/db/src/stores';
import { html, type SafeHtml } from '../html/html';
import { environmentBadge } from '../html/status-badge';
import type { Page } from '../http/page-renderer';
import { signingModeBadge } from './signing-mode';

export function taxpayerListPage(o: { taxpayers: TaxpayerView[]; now: Date; notice: SafeHtml }): Page {
  return {
    title: 'Taxpayers',
    nav: 'taxpayers',
    body: () => html`<div class="page-header"><h1>Taxpayers</h1><a class="button" href="/app/taxpayers/new">Add a taxpayer</a></div>
      ${o.notice}
      <p class="lead">The companies and people whose invoices you register. Each one has its own hash chain and its own queue to the authority.</p>
      ${o.taxpayers.length === 0
        ? html`<p class="empty">No taxpayers yet. <a href="/app/taxpayers/new">Add the first one</a>.</p>`
        : html`<table class="responsive">
        <thead><tr><th scope="col">Name</th><th scope="col">NIF</th><th scope="col">Environment</th><th scope="col">Signing</th><th scope="col" class="num">Records</th><th scope="col">Chain</th></tr></thead>
        <tbody>${o.taxpayers.map(
          (t) => html`<tr>
            <td data-label="Name"><a href="/app/taxpayers/${t.id}">${t.name}</a></td>
            <td data-label="NIF"><code>${t.nif}</code></td>
            <td data-label="Environment">${environmentBadge(t.isProduction)}</td>
            <td data-label="Signing">${signingModeBadge(t, o.now)}</td>
            <td class="num" data-label="Records">${t.chainLength.toLocaleString('en-GB')}</td>
            <td data-label="Chain"><a href="/app/taxpayers/${t.id}/chain">Chain<span class="visually-hidden"> of ${t.name}</span></a></td>
          </tr>`,
        )}</tbody>
      </table>`}`,
  };
}
