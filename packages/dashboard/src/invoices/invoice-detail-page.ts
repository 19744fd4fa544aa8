import type { InvoiceDetail, InvoiceRow, SubmissionRow } from '@vf/db';
import type { InvoiceLink } from '@vf/db';
import { explainCause, recordQrUrl } from '@vf/core';
import { formatAmount, formatDateTime, formatInvoiceDate, formatRate } from '../html/format';
import { html, raw, type SafeHtml } from '../html/html';
import { environmentBadge, isFinalStatus, statusBadge } from '../html/status-badge';
import { csrfField, type PageContext } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { authorityExplanation, codeInWords, nextAttemptFact, resendForm } from './authority-explanation';
import { locale, t } from '../i18n/i18n';
import { authorityMessageText, failureText, historyNote } from './history-text';
import { recipientsFact, recordContentFacts } from './invoice-content-facts';
import { keptRecipientCheck } from './kept-recipient-check';
import { SECTION_PATHS, sectionOf, typeLabel } from './invoice-kinds';

export interface InvoiceDetailView {
  detail: InvoiceDetail;
  submissions: SubmissionRow[];
  taxpayerName: string;
  neighbours: { previous?: InvoiceLink; next?: InvoiceLink };
  /** Original and corrective (R-type) invoices of the same taxpayer, both ways. */
  links: { corrects: (InvoiceLink & { invoiceDate: string })[]; correctedBy: InvoiceLink[] };
  /** What a form on this page just did (after its redirect). */
  notice?: SafeHtml;
}

const RECORD_TYPE_KEYS: Record<string, string> = {
  registration: 'detail.recordRegistration',
  correction: 'detail.recordCorrection',
  cancellation: 'detail.recordCancellation',
};

const recordTypeLabel = (type: string) => (RECORD_TYPE_KEYS[type] ? t(RECORD_TYPE_KEYS[type]) : type);

/** The operations-matrix flags a record carries, as they appear in its XML. */
function flagsText(r: InvoiceRow): string {
  const flags = [
    r.subsanacion ? 'Subsanacion=S' : '',
    r.rechazoPrevio ? `RechazoPrevio=${r.rechazoPrevio}` : '',
    r.sinRegistroPrevio ? 'SinRegistroPrevio=S' : '',
  ].filter(Boolean);
  return flags.length > 0 ? flags.join(', ') : '—';
}

/**
 * A warning the authority would store the record with is explained in the page's language; the service's own
 * warnings by their code (the API's message is English), as the API wrote them on an English page.
 */
function warningText(w: InvoiceRow['warnings'][number]): SafeHtml {
  if (w.explanation) return html`<strong>${w.authority_code}</strong> ${w.explanation[locale()]}`;
  if (locale() === 'en') return html`${w.message}`;
  return html`${t(`warning.${w.code}`, { defaultValue: t('warning.other', { code: w.code }) })}`;
}

/** What the authority answered to an earlier record: its own (Spanish) text, or the service's cause in plain words. */
function recordAnswer(r: InvoiceRow): SafeHtml | string {
  const cause = r.errorCause ? explainCause({ code: r.authorityCode, cause: r.errorCause }) : undefined;
  if (cause) return cause[locale()].explanation;
  return r.authorityMessage ? authorityMessageText(r.authorityMessage) : '';
}

/** Every record of the invoice, oldest first, each with what the authority answered and its XML. */
function recordHistory(invoiceId: string, records: InvoiceRow[]): SafeHtml {
  const latest = records[records.length - 1];
  const [record, flags, status, answer, generated] = ['colRecord', 'colFlags', 'colStatus', 'colAnswer', 'colGenerated'].map((k) =>
    t(`detail.${k}`),
  );
  return html`<table class="responsive" data-testid="record-history">
    <thead><tr><th scope="col">#</th><th scope="col">${record}</th><th scope="col">${flags}</th><th scope="col">${status}</th><th scope="col">${answer}</th><th scope="col">${generated}</th><th scope="col">XML</th></tr></thead>
    <tbody>${records.map(
      (r) => html`<tr>
        <td data-label="#">${r.chainSeq}</td>
        <td data-label="${record}">${recordTypeLabel(r.recordType)}${r.cancellationReason ? html`<br><span class="muted">${r.cancellationReason}</span>` : ''}</td>
        <td data-label="${flags}"><code>${flagsText(r)}</code></td>
        <td data-label="${status}">${statusBadge(r.authorityStatus)}</td>
        <td data-label="${answer}">${r.authorityCode !== null ? html`<strong>${r.authorityCode}</strong> ` : ''}${
          // The latest record's answer is explained once, in the card above; an older one in the reader's language.
          r === latest ? '' : (codeInWords({ code: r.authorityCode, cause: r.errorCause }) ?? recordAnswer(r))
        }${r.warnings.length > 0 ? html`<ul class="warnings">${r.warnings.map((w) => html`<li>${warningText(w)}</li>`)}</ul>` : ''}</td>
        <td data-label="${generated}"><code>${r.generatedAtLiteral}</code></td>
        <td data-label="XML"><a href="/app/invoices/${invoiceId}/records/${r.id}/xml" data-testid="record-xml-link">${r.recordType === 'cancellation' ? 'RegistroAnulacion' : 'RegistroAlta'}</a></td>
      </tr>`,
    )}</tbody>
  </table>`;
}

/**
 * Correct and cancel. A cancelled invoice cannot be cancelled again, but a correction (subsanación) reactivates it
 * (AEAT Validaciones y errores, annex 6: OK(5) "reactiva el registro anulado").
 */
function actions(ctx: PageContext, invoiceId: string, cancelled: boolean): SafeHtml {
  if (cancelled)
    return html`<p class="notice" data-testid="invoice-cancelled">${t('detail.cancelledNotice')}</p>
      <section class="card" aria-labelledby="actions-title">
        <h2 id="actions-title">${t('detail.reactivateTitle')}</h2>
        <p><a class="button" href="/app/invoices/${invoiceId}/correct" data-testid="reactivate-invoice">${t('detail.reactivate')}</a>
          <span class="hint">${t('detail.reactivateHint')}</span></p>
      </section>`;
  return html`<section class="card" aria-labelledby="actions-title">
    <h2 id="actions-title">${t('detail.actionsTitle')}</h2>
    <p><a class="button" href="/app/invoices/${invoiceId}/correct" data-testid="correct-invoice">${t('detail.correct')}</a>
      <span class="hint">${t('detail.correctHint')}</span></p>
    <details>
      <summary class="button button--danger">${t('detail.cancel')}</summary>
      <form method="post" action="/app/invoices/${invoiceId}/cancel" class="stack" data-confirm="${t('detail.cancelConfirm')}">
        ${csrfField(ctx)}
        <p>${t('detail.cancelWarning')}</p>
        <div class="field">
          <label for="field-reason">${t('detail.reason')} <span class="muted">${t('detail.optional')}</span></label>
          <textarea id="field-reason" name="reason" rows="2" maxlength="500"></textarea>
        </div>
        <div class="check"><input id="field-confirm" name="confirm" type="checkbox" value="yes" required><label for="field-confirm">${t('detail.confirmCancel')}</label></div>
        <button type="submit" class="button button--danger">${t('detail.cancelSubmit')}</button>
      </form>
    </details>
  </section>`;
}

const RECTIFICATION_KEYS: Record<string, string> = { S: 'detail.methodS', I: 'detail.methodI' };

/**
 * Orden HAC/1177/2024 arts. 20-21 and AEAT's QR specification (v0.4.7): "QR tributario:" above the code and "VERI*FACTU"
 * below it, the code at level M with its quiet zone. A record kept in NO VERI*FACTU (its QR checked at
 * ValidarQRNoVerifactu) must not carry the legend.
 */
function qrBlock(id: string, qrUrl: string): SafeHtml {
  const legend = qrUrl.includes('/ValidarQRNoVerifactu?') ? html`` : html`<p>VERI*FACTU</p>`;
  return html`<figure class="qr" aria-label="${t('detail.qrFigure')}">
    <p>QR tributario:</p>
    <img src="/app/invoices/${id}/qr.svg" width="160" height="160" alt="${t('detail.qrAlt')}" data-testid="invoice-qr">
    ${legend}
  </figure>
  <p class="hint">${t('detail.qrEncodes')} <a href="${qrUrl}" rel="noopener noreferrer"><code>${qrUrl}</code></a>. ${t('detail.qrPrint')} <a href="/app/invoices/${id}/qr.png" download>PNG</a> · <a href="/app/invoices/${id}/qr.svg" download>SVG</a>.</p>`;
}

function breakdown(lines: InvoiceDetail['lines']): SafeHtml {
  const [tax, regime, operation, base, costBase, rate, taxAmount, surcharge] = [
    'colTax',
    'colRegime',
    'colOperation',
    'colBase',
    'colCostBase',
    'colRate',
    'colTaxAmount',
    'colSurcharge',
  ].map((k) => t(`detail.${k}`));
  // BaseImponibleACoste exists only on regime 06 and some IPSI or other-tax lines: its column only when a line has it.
  const withCost = lines.some((l) => l.costBaseAmount !== null);
  return html`<table class="responsive">
    <thead><tr><th scope="col">${tax}</th><th scope="col">${regime}</th><th scope="col">${operation}</th><th scope="col" class="num">${base}</th>${withCost ? html`<th scope="col" class="num">${costBase}</th>` : ''}<th scope="col" class="num">${rate}</th><th scope="col" class="num">${taxAmount}</th><th scope="col" class="num">${surcharge}</th></tr></thead>
    <tbody>${lines.map(
      (l) => html`<tr>
        <td data-label="${tax}">${l.taxType}</td>
        <td data-label="${regime}">${l.regimeType ?? '—'}</td>
        <td data-label="${operation}">${l.operationType}</td>
        <td class="num" data-label="${base}">${formatAmount(l.baseAmount)}</td>${
          withCost
            ? html`<td class="num" data-label="${costBase}">${l.costBaseAmount !== null ? formatAmount(l.costBaseAmount) : '—'}</td>`
            : ''
        }
        <td class="num" data-label="${rate}">${l.taxRate !== null ? formatRate(l.taxRate) : '—'}</td>
        <td class="num" data-label="${taxAmount}">${l.taxAmount !== null ? formatAmount(l.taxAmount) : '—'}</td>
        <td class="num" data-label="${surcharge}">${l.surchargeAmount !== null ? html`${formatAmount(l.surchargeAmount)}${l.surchargeRate !== null ? ` (${formatRate(l.surchargeRate)})` : ''}` : '—'}</td>
      </tr>`,
    )}</tbody>
  </table>`;
}

function timeline(events: InvoiceDetail['events']): SafeHtml {
  return html`<ol class="timeline">${events.map(
    (e) =>
      html`<li><time datetime="${e.at.toISOString()}">${formatDateTime(e.at)}</time>${statusBadge(e.status)}${e.code !== null ? html` <strong>${t('detail.timelineCode', { code: e.code })}</strong>` : ''}${historyNote(e.message) ? html` ${historyNote(e.message)}` : ''}</li>`,
  )}</ol>`;
}

function submissionBlock(s: SubmissionRow, n: number): SafeHtml {
  return html`<details>
    <summary>${t('detail.submission', { n, at: formatDateTime(s.startedAt), outcome: t(`detail.outcome.${s.outcome}`, { defaultValue: s.outcome }) })}${s.httpStatus !== null ? ` · HTTP ${s.httpStatus}` : ''}</summary>
    <dl class="facts">
      <dt>${t('detail.endpoint')}</dt><dd><code>${s.endpoint}</code></dd>
      <dt>${t('detail.signedWith')}</dt><dd>${s.certificateMode === 'platform' ? t('detail.platformCert') : t('detail.taxpayerCert')}</dd>
      <dt>${t('detail.recordsInMessage')}</dt><dd>${s.recordCount}${s.incident ? ` · ${t('detail.incident')}` : ''}</dd>
      ${s.faultCode ? html`<dt>${t('detail.soapFault')}</dt><dd>${s.faultCode}</dd>` : ''}
      ${s.errorMessage ? html`<dt>${t('detail.error')}</dt><dd>${failureText(s.errorMessage)}</dd>` : ''}
      ${s.csv ? html`<dt>CSV</dt><dd><code>${s.csv}</code></dd>` : ''}
      ${s.waitSeconds !== null ? html`<dt>${t('detail.nextSendAfter')}</dt><dd>${s.waitSeconds} s (TiempoEsperaEnvio)</dd>` : ''}
      <dt>${t('detail.finished')}</dt><dd>${formatDateTime(s.finishedAt)}</dd>
    </dl>
    <h4>${t('detail.requestXml')}</h4>
    <pre class="xml"><code>${s.requestXml}</code></pre>
    <h4>${t('detail.responseXml')}</h4>
    ${s.responseXml ? html`<pre class="xml"><code>${s.responseXml}</code></pre>` : html`<p class="empty">${t('detail.noResponse')}</p>`}
  </details>`;
}

type ShownInvoice = InvoiceDetail['invoice'];

/** The authority's answer: status, code and message explained, CSV, attempts, and the resend form when one applies. */
function answerCard(ctx: PageContext, i: ShownInvoice, explained: SafeHtml | undefined): SafeHtml {
  return html`<section class="card" aria-labelledby="answer-title">
    <h2 id="answer-title">${t('detail.answerTitle')}</h2>
    ${i.sandboxScenario ? html`<p class="notice">${t('sandbox.scenarioNote')}</p>` : ''}
    <dl class="facts">
      ${i.sandboxScenario ? html`<dt>${t('sandbox.scenarioLabel')}</dt><dd><code data-testid="sandbox-scenario">${i.sandboxScenario}</code></dd>` : ''}
      <dt>${t('detail.status')}</dt><dd>${statusBadge(i.authorityStatus, i.id)}</dd>
      <dt>${t('detail.codeAndMessage')}</dt><dd data-authority-for="${i.id}">${explained ?? html`${i.authorityCode !== null ? html`<strong>${i.authorityCode}</strong>: ` : ''}${i.authorityMessage ?? (i.authorityCode !== null ? '' : isFinalStatus(i.authorityStatus) ? t('detail.none') : t('detail.noneYet'))}`}</dd>
      ${nextAttemptFact(i)}
      <dt>${t('detail.csv')}</dt><dd>${i.authorityCsv ? html`<code>${i.authorityCsv}</code>` : t('detail.noneYet')}</dd>
      ${i.lastError && !explained ? html`<dt>${t('detail.lastError')}</dt><dd>${failureText(i.lastError)}</dd>` : ''}
      <dt>${t('detail.sendAttempts')}</dt><dd>${i.sendAttempts}</dd>
    </dl>
    ${resendForm(ctx, i)}
  </section>`;
}

/** What a corrective invoice corrects, and how. */
function correctionFacts(i: ShownInvoice, corrects: InvoiceDetailView['links']['corrects']): SafeHtml {
  return html`<dt>${t('detail.corrects')}</dt><dd>${
    i.correctedInvoices.length === 0
      ? t('detail.noReference')
      : html`<ul>${i.correctedInvoices.map((r) => {
          const original = corrects.find((o) => o.invoiceNumber === r.invoice_number && o.invoiceDate === r.invoice_date);
          const label = html`<code>${r.invoice_number}</code>`;
          return html`<li>${original ? html`<a href="/app/invoices/${original.id}" data-testid="corrects-link">${label}</a>` : label} ${t('detail.ofDate', { date: formatInvoiceDate(r.invoice_date) })}</li>`;
        })}</ul>`
  }</dd>
  <dt>${t('detail.correctionMethod')}</dt><dd>${i.rectificationType ? (RECTIFICATION_KEYS[i.rectificationType] ? t(RECTIFICATION_KEYS[i.rectificationType]) : i.rectificationType) : '—'}</dd>
  ${i.rectifiedBaseAmount !== null ? html`<dt>${t('detail.correctedBaseTax')}</dt><dd>${formatAmount(i.rectifiedBaseAmount)} / ${formatAmount(i.rectifiedTaxAmount ?? '0.00')}</dd>` : ''}
  ${i.rectifiedSurchargeAmount !== null ? html`<dt>${t('detail.correctedSurcharge')}</dt><dd>${formatAmount(i.rectifiedSurchargeAmount)}</dd>` : ''}`;
}

/** The record's place in its chain: type, time, huella, neighbours and the system that issued it. */
function recordCard(i: ShownInvoice, v: InvoiceDetailView): SafeHtml {
  return html`<section class="card" aria-labelledby="record-title">
    <h2 id="record-title">${t('detail.recordTitle')}</h2>
    <dl class="facts">
      <dt>${t('detail.recordType')}</dt><dd>${recordTypeLabel(i.recordType)}</dd>
      <dt>${t('detail.generatedAt')}</dt><dd><code>${i.generatedAtLiteral}</code></dd>
      <dt>${t('detail.chainPosition')}</dt><dd>${i.chainSeq} · <a href="/app/taxpayers/${i.taxpayerId}/chain">${t('detail.chainOf', { name: v.taxpayerName })}</a></dd>
      <dt>${t('detail.hash')}</dt><dd><code data-testid="invoice-hash">${i.hash}</code></dd>
      <dt>${t('detail.previousHash')}</dt><dd>${i.previousHash ? html`<code>${i.previousHash}</code>` : t('detail.firstRecord')}</dd>
      <dt>${t('detail.previousRecord')}</dt><dd>${v.neighbours.previous ? html`<a href="/app/invoices/${v.neighbours.previous.id}" rel="prev">${v.neighbours.previous.invoiceNumber}</a>` : '—'}</dd>
      <dt>${t('detail.nextRecord')}</dt><dd>${v.neighbours.next ? html`<a href="/app/invoices/${v.neighbours.next.id}" rel="next">${v.neighbours.next.invoiceNumber}</a>` : '—'}</dd>
      <dt>${t('detail.system')}</dt><dd>${t('detail.systemText', { name: i.systemSnapshot.NombreSistemaInformatico, version: i.systemSnapshot.Version, id: i.systemSnapshot.IdSistemaInformatico, producer: i.systemSnapshot.NombreRazon, installation: i.systemSnapshot.NumeroInstalacion })}</dd>
      <dt>${t('detail.id')}</dt><dd><code>${i.id}</code></dd>
    </dl>
  </section>`;
}

export function invoiceDetailPage(v: InvoiceDetailView): Page {
  // The current state is the latest record; the invoice itself is addressed by its first record's id.
  const i = { ...v.detail.invoice, id: v.detail.records[0].id };
  const section = sectionOf(i.invoiceType);
  const corrective = section === 'corrective';
  const explained = authorityExplanation(i);
  return {
    title: t(corrective ? 'detail.titleCorrective' : 'detail.titleInvoice', { number: i.invoiceNumber }),
    nav: section,
    statusUrl: '/app/invoices/statuses',
    body: (
      ctx,
    ) => html`<p class="breadcrumb"><a href="${SECTION_PATHS[section]}">${t(corrective ? 'nav.corrective' : 'nav.invoices')}</a></p>
      <div class="page-header">
        <h1>${t(corrective ? 'detail.titleCorrective' : 'detail.titleInvoice', { number: i.invoiceNumber })}</h1>
        <div class="actions">${t('detail.statusLabel')} ${statusBadge(i.authorityStatus, i.id)} ${environmentBadge(i.isProduction)}${
          v.detail.cancelled ? html` <span class="badge badge--rejected">${t('detail.cancelledBadge')}</span>` : ''
        }</div>
      </div>
      ${v.notice ?? ''}
      <p class="notice" data-refresh-hint="${i.id}" hidden>${raw(t('detail.refreshHint', { href: `/app/invoices/${i.id}` }))}</p>
      <div class="grid">
        ${answerCard(ctx, i, explained)}
        <section class="card" aria-labelledby="qr-title">
          <h2 id="qr-title">${t('detail.qrTitle')}</h2>
          ${qrBlock(i.id, recordQrUrl(i))}
        </section>
      </div>
      <section class="card" aria-labelledby="invoice-title">
        <h2 id="invoice-title">${t('detail.invoiceTitle')}</h2>
        <dl class="facts">
          <dt>${t('detail.type')}</dt><dd>${typeLabel(i.invoiceType)}</dd>
          <dt>${t('detail.number')}</dt><dd><code>${i.invoiceNumber}</code></dd>
          <dt>${t('detail.date')}</dt><dd>${formatInvoiceDate(i.invoiceDate)}</dd>
          ${i.operationDate ? html`<dt>${t('detail.operationDate')}</dt><dd>${formatInvoiceDate(i.operationDate)}</dd>` : ''}
          <dt>${t('detail.issuer')}</dt><dd><a href="/app/taxpayers/${i.taxpayerId}">${v.taxpayerName}</a> · ${t('detail.asSent', { name: i.issuerName })} <code>${i.issuerNif}</code></dd>
          ${recipientsFact(i)}
          ${recordContentFacts(i)}
          <dt>${t('detail.description')}</dt><dd>${i.description}</dd>
          ${corrective ? correctionFacts(i, v.links.corrects) : ''}
          ${
            v.links.correctedBy.length > 0
              ? html`<dt>${t('detail.correctedBy')}</dt><dd><ul>${v.links.correctedBy.map((c) => html`<li><a href="/app/invoices/${c.id}" data-testid="corrected-by-link">${c.invoiceNumber}</a></li>`)}</ul></dd>`
              : ''
          }
          <dt>${t('detail.totalTax')}</dt><dd>${formatAmount(i.totalTaxAmount)}</dd>
          <dt>${t('detail.total')}</dt><dd><strong>${formatAmount(i.totalAmount)}</strong></dd>
        </dl>
        <h3>${t('detail.breakdownTitle')}</h3>
        ${breakdown(v.detail.lines)}
      </section>
      ${keptRecipientCheck(v.detail.records[0].recipientCheck)}
      ${recordCard(i, v)}
      ${actions(ctx, i.id, v.detail.cancelled)}
      <section class="card" aria-labelledby="records-title">
        <h2 id="records-title">${t('detail.recordsTitle')}</h2>
        ${recordHistory(i.id, v.detail.records)}
      </section>
      <section class="card" aria-labelledby="timeline-title">
        <h2 id="timeline-title">${t('detail.timelineTitle')}</h2>
        ${timeline(v.detail.events)}
      </section>
      <section aria-labelledby="submissions-title">
        <h2 id="submissions-title">${t('detail.submissionsTitle')}</h2>
        ${v.submissions.length === 0 ? html`<p class="empty">${t('detail.notSent')}</p>` : v.submissions.map((s, n) => submissionBlock(s, v.submissions.length - n))}
      </section>`,
  };
}
