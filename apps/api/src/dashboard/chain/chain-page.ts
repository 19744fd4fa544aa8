import type { TaxpayerView } from '@vf/db/src/stores';
import { formatDateTime } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { csrfField } from '../html/layout';
import { environmentBadge } from '../html/status-badge';
import type { Page } from '../http/page-renderer';
import type { ChainRecord, ChainVerification } from './verify-chain';

/** The same four facts as GET /api/v1/chain/{nif}. */
export interface ChainState {
  nif: string;
  lastHash: string | null;
  totalRecords: number;
  lastRecordAt: Date | null;
}

function verificationResult(r: ChainVerification): SafeHtml {
  if (r.ok) {
    return html`<div class="notice notice--success" role="status" data-testid="chain-result">
      <p><strong>All ${r.verified.toLocaleString('en-GB')} record${r.verified === 1 ? '' : 's'} verified.</strong> Every hash recomputes from its record's values, every record points to the one before it, and the chain head matches the last record.</p>
    </div>`;
  }
  const b = r.break;
  return html`<div class="notice notice--error" role="alert" data-testid="chain-result">
    <p><strong>The chain is broken at record ${b.position}${b.invoiceNumber ? html` (invoice ${b.invoiceId ? html`<a href="/app/invoices/${b.invoiceId}">${b.invoiceNumber}</a>` : b.invoiceNumber})` : ''}:</strong> ${b.problem}.</p>
    <p>${r.verified.toLocaleString('en-GB')} record${r.verified === 1 ? '' : 's'} before it verified correctly. Nothing was changed; keep the records as they are and contact support with this message.</p>
  </div>`;
}

export function chainPage(o: { taxpayer: TaxpayerView; state: ChainState; links: ChainRecord[]; result?: ChainVerification }): Page {
  const t = o.taxpayer;
  return {
    title: `Chain of ${t.name}`,
    nav: 'taxpayers',
    body: (ctx) => html`<p class="breadcrumb"><a href="/app/taxpayers">Taxpayers</a> › <a href="/app/taxpayers/${t.id}">${t.name}</a></p>
      <div class="page-header"><h1>Hash chain of ${t.name}</h1>${environmentBadge(t.isProduction)}</div>
      ${o.result ? verificationResult(o.result) : ''}
      <section class="card" aria-labelledby="state-title">
        <h2 id="state-title">Chain state</h2>
        <dl class="facts">
          <dt>NIF</dt><dd><code>${o.state.nif}</code></dd>
          <dt>Records</dt><dd data-testid="chain-total">${o.state.totalRecords.toLocaleString('en-GB')}</dd>
          <dt>Last hash</dt><dd>${o.state.lastHash ? html`<code>${o.state.lastHash}</code>` : 'none yet'}</dd>
          <dt>Last record at</dt><dd>${formatDateTime(o.state.lastRecordAt)}</dd>
        </dl>
        <p class="hint">The same state the API returns at <code>GET /api/v1/chain/${o.state.nif}</code>.</p>
      </section>
      <section class="card" aria-labelledby="verify-title">
        <h2 id="verify-title">Verify the chain</h2>
        <p>Recomputes the hash of every record from its stored values and checks each link to the record before it, from the first record to the last. It reports the first broken link, if any.</p>
        <form method="post" action="/app/taxpayers/${t.id}/chain/verify">${csrfField(ctx)}<button type="submit" class="button">Verify chain</button></form>
      </section>
      <section class="card" aria-labelledby="links-title">
        <h2 id="links-title">Latest records</h2>
        ${o.links.length === 0
          ? html`<p class="empty">No records yet.</p>`
          : html`<table class="responsive">
          <thead><tr><th scope="col" class="num">#</th><th scope="col">Invoice</th><th scope="col">Generated at</th><th scope="col">Hash</th><th scope="col">Previous hash</th></tr></thead>
          <tbody>${o.links.map(
            (l) => html`<tr>
              <td class="num" data-label="#">${l.chainSeq}</td>
              <td data-label="Invoice"><a href="/app/invoices/${l.id}">${l.invoiceNumber}</a> <span class="muted">${l.invoiceType}</span></td>
              <td data-label="Generated at"><code>${l.generatedAtLiteral}</code></td>
              <td data-label="Hash"><code title="${l.hash}">${l.hash.slice(0, 16)}…</code></td>
              <td data-label="Previous hash">${l.previousHash ? html`<code title="${l.previousHash}">${l.previousHash.slice(0, 16)}…</code>` : html`<span class="muted">first record</span>`}</td>
            </tr>`,
          )}</tbody>
        </table>`}
      </section>`,
  };
}
