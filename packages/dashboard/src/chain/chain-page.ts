import type { TaxpayerView } from '@vf/db';
import { formatCount, formatDateTime } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { inputField } from '../html/form-fields';
import { csrfField } from '../html/layout';
import { environmentBadge } from '../html/status-badge';
import type { Page } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { tHtml } from '../i18n/t-html';
import type { ChainRecord, ChainVerification, ChainView } from '@vf/contract';

/** The same four facts as GET /api/v1/chain/{nif}. */
export type ChainState = Pick<ChainView, 'nif' | 'lastHash' | 'totalRecords' | 'lastRecordAt'>;

function signatureLines(r: ChainVerification): SafeHtml {
  const s = r.signatures;
  return html`<p data-testid="chain-signatures">${t('chain.signatureCounts', { valid: s.valid, invalid: s.invalid, missing: s.missing })}</p>${
    r.invalidSignatures.length
      ? html`<ul>${r.invalidSignatures.map(
          (b) =>
            html`<li><strong>${t('chain.invalidSignature', { position: b.position })} (${t('chain.invoice')} <a href="/app/invoices/${b.invoiceId}">${b.invoiceNumber}</a>):</strong> ${b.problem}.</li>`,
        )}</ul>`
      : ''
  }`;
}

function verificationResult(r: ChainVerification): SafeHtml {
  if (r.ok) {
    return html`<div class="notice notice--success" role="status" data-testid="chain-result">
      <p>${tHtml('chain.allVerified', { count: r.verified, formatted: formatCount(r.verified) })}</p>
      ${signatureLines(r)}
    </div>`;
  }
  const b = r.break;
  return html`<div class="notice notice--error" role="alert" data-testid="chain-result">
    ${
      b
        ? html`<p><strong>${t('chain.brokenAt', { position: b.position })}${b.invoiceNumber ? html` (${t('chain.invoice')} ${b.invoiceId ? html`<a href="/app/invoices/${b.invoiceId}">${b.invoiceNumber}</a>` : b.invoiceNumber})` : ''}:</strong> ${b.problem}.</p>
    <p>${t('chain.verifiedBefore', { count: r.verified, formatted: formatCount(r.verified) })}</p>`
        : ''
    }
    ${signatureLines(r)}
  </div>`;
}

export function chainPage(o: {
  taxpayer: TaxpayerView;
  state: ChainState;
  links: ChainRecord[];
  result?: ChainVerification;
  /** The range last verified, as typed. */
  range?: { from?: string; to?: string };
}): Page {
  const tp = o.taxpayer;
  return {
    title: t('chain.title', { name: tp.name }),
    nav: 'taxpayers',
    body: (
      ctx,
    ) => html`<p class="breadcrumb"><a href="/app/taxpayers">${t('taxpayers.title')}</a> › <a href="/app/taxpayers/${tp.id}">${tp.name}</a></p>
      <div class="page-header"><h1>${t('chain.heading', { name: tp.name })}</h1>${environmentBadge(tp.isProduction)}</div>
      ${o.result ? verificationResult(o.result) : ''}
      <section class="card" aria-labelledby="state-title">
        <h2 id="state-title">${t('chain.state')}</h2>
        <dl class="facts">
          <dt>NIF</dt><dd><code>${o.state.nif}</code></dd>
          <dt>${t('chain.records')}</dt><dd data-testid="chain-total">${formatCount(o.state.totalRecords)}</dd>
          <dt>${t('chain.lastHash')}</dt><dd>${o.state.lastHash ? html`<code>${o.state.lastHash}</code>` : t('chain.noneYet')}</dd>
          <dt>${t('chain.lastRecordAt')}</dt><dd>${formatDateTime(o.state.lastRecordAt)}</dd>
        </dl>
        <p class="hint">${tHtml('chain.sameAsApi', { nif: o.state.nif })}</p>
      </section>
      <section class="card" aria-labelledby="verify-title">
        <h2 id="verify-title">${t('chain.verifyTitle')}</h2>
        <p>${t('chain.verifyBody')}</p>
        <form method="post" action="/app/taxpayers/${tp.id}/chain/verify">${csrfField(ctx)}
          ${inputField({ name: 'from', label: t('chain.rangeFrom'), type: 'text', value: o.range?.from, hint: t('chain.rangeHint'), attrs: html` inputmode="numeric" pattern="[0-9]*"` })}
          ${inputField({ name: 'to', label: t('chain.rangeTo'), type: 'text', value: o.range?.to, attrs: html` inputmode="numeric" pattern="[0-9]*"` })}
          <button type="submit" class="button">${t('chain.verify')}</button></form>
      </section>
      <section class="card" aria-labelledby="links-title">
        <h2 id="links-title">${t('chain.latest')}</h2>
        ${
          o.links.length === 0
            ? html`<p class="empty">${t('chain.noRecords')}</p>`
            : html`<table class="responsive">
          <thead><tr><th scope="col" class="num">#</th><th scope="col">${t('chain.colInvoice')}</th><th scope="col">${t('chain.colGenerated')}</th><th scope="col">${t('chain.colHash')}</th><th scope="col">${t('chain.colPrevious')}</th></tr></thead>
          <tbody>${o.links.map(
            (l) => html`<tr>
              <td class="num" data-label="#">${l.chainSeq}</td>
              <td data-label="${t('chain.colInvoice')}"><a href="/app/invoices/${l.id}">${l.invoiceNumber}</a> <span class="muted">${l.invoiceType}</span></td>
              <td data-label="${t('chain.colGenerated')}"><code>${l.generatedAtLiteral}</code></td>
              <td data-label="${t('chain.colHash')}"><code title="${l.hash}">${l.hash.slice(0, 16)}…</code></td>
              <td data-label="${t('chain.colPrevious')}">${l.previousHash ? html`<code title="${l.previousHash}">${l.previousHash.slice(0, 16)}…</code>` : html`<span class="muted">${t('chain.first')}</span>`}</td>
            </tr>`,
          )}</tbody>
        </table>`
        }
      </section>`,
  };
}
