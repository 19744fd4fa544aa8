import type { IntegrityCheckReport } from '@vf/contract';
import { html, type SafeHtml } from '../html/html';
import { t } from '../i18n/i18n';

const verdict = (ok: boolean) =>
  ok ? html`<span class="badge badge--success">${t('kept.ok')}</span>` : html`<span class="badge badge--error">${t('kept.wrong')}</span>`;

/** What an on-demand check found: a verdict, each anomaly, and each link in chain order. */
export function checkReport(result: IntegrityCheckReport): SafeHtml {
  const sound = result.anomalies.length === 0;
  const summary = sound
    ? t('kept.resultSound', { count: result.links.length, from: result.fromSeq, to: result.toSeq })
    : t('kept.resultAnomalies', { count: result.anomalies.length, checked: result.links.length });
  const links = result.links.map(
    (l) => html`<tr data-testid="check-link">
      <td data-label="${t('kept.colSeq')}">${String(l.seq)}</td>
      <td data-label="${t('kept.colDate')}"><code>${l.generatedAt}</code></td>
      <td data-label="${t('kept.colHash')}">${verdict(l.hashOk)}</td>
      <td data-label="${t('kept.colSignature')}">${verdict(l.signatureOk)}</td>
      <td data-label="${t('kept.colLink')}">${verdict(l.linkOk)}</td>
      <td data-label="${t('kept.colOrder')}">${verdict(l.dateOk)}</td>
    </tr>`,
  );
  return html`<section class="card" aria-labelledby="check-result-title" data-testid="check-result" data-sound="${String(sound)}">
    <h2 id="check-result-title">${t('kept.resultTitle')}</h2>
    <div class="notice ${sound ? 'notice--success' : 'notice--error'}" role="status"><p>${summary}</p>
    ${result.restored ? html`<p>${t('kept.resultRestored')}</p>` : ''}</div>
    ${sound ? '' : html`<ul data-testid="check-anomalies">${result.anomalies.map((a) => html`<li>${t('kept.anomaly', { seq: a.seq, detail: a.detail })}</li>`)}</ul>`}
    <table class="responsive"><thead><tr><th>${t('kept.colSeq')}</th><th>${t('kept.colDate')}</th><th>${t('kept.colHash')}</th>
      <th>${t('kept.colSignature')}</th><th>${t('kept.colLink')}</th><th>${t('kept.colOrder')}</th></tr></thead><tbody>${links}</tbody></table>
  </section>`;
}
