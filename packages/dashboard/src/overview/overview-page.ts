import type { AuthorityStatus } from '@vf/db';
import type { PendingForTaxpayer, ProblemInvoice, StatusCount } from '@vf/db';
import type { OutageSummary } from '@vf/db';
import { formatCount, formatDateTime, formatInvoiceDate, formatWait } from '../html/format';
import { html } from '../html/html';
import { ALL_STATUSES, environmentBadge, statusBadge } from '../html/status-badge';
import type { Page } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { tHtml } from '../i18n/t-html';
import { SECTION_PATHS } from '../invoices/invoice-kinds';
import { codeInWords } from '../invoices/authority-explanation';
import { monthlyChart } from './monthly-chart';
import { authorityMessageText, failureText } from '../invoices/history-text';
import type { MonthCounts } from '@vf/contract';

export interface OverviewView {
  accountName: string;
  planName: string;
  usage: { period: string; used: number; remaining: number; resetsAt: Date };
  monthlyQuota: number;
  counts: StatusCount[];
  problems: ProblemInvoice[];
  pending: PendingForTaxpayer[];
  /** Records held back because the authority does not answer; absent when every send gets through. */
  outage?: OutageSummary;
  months: MonthCounts[];
  now: Date;
}

// The law asks for a warning with the number of records waiting while an incident keeps them from the authority.
function outageWarning(o: OutageSummary | undefined) {
  if (!o) return '';
  return html`<div class="notice notice--warn" role="alert" data-testid="outage-warning">
    <p>${tHtml('overview.outage', { count: o.waitingRecords, since: formatDateTime(o.since) })}</p>
  </div>`;
}

function usageCard(v: OverviewView) {
  const share = v.monthlyQuota > 0 ? Math.min(100, Math.round((v.usage.used / v.monthlyQuota) * 100)) : 100;
  return html`<section class="card" aria-labelledby="usage-title">
    <h2 id="usage-title">${t('overview.usageTitle')}</h2>
    <p class="stat" data-testid="usage">${formatCount(v.usage.used)} <small>${t('overview.usageOf', { quota: formatCount(v.monthlyQuota) })}</small></p>
    <progress max="${v.monthlyQuota}" value="${Math.min(v.usage.used, v.monthlyQuota)}" aria-label="${t('overview.usageBar')}">${share}%</progress>
    <p class="hint">${t('overview.usageHint', { plan: v.planName, remaining: formatCount(v.usage.remaining), resets: formatDateTime(v.usage.resetsAt) })}</p>
    ${share >= 90 ? html`<p class="notice notice--warn">${t('overview.usageWarn', { share })}</p>` : ''}
  </section>`;
}

function countsCard(counts: StatusCount[]) {
  const of = (status: AuthorityStatus, corrective: boolean) =>
    counts.find((c) => c.status === status && c.corrective === corrective)?.n ?? 0;
  const cell = (status: AuthorityStatus, corrective: boolean, label: string) => {
    const n = of(status, corrective);
    const path = SECTION_PATHS[corrective ? 'corrective' : 'invoices'];
    return html`<td class="num" data-label="${label}">${n > 0 ? html`<a href="${path}?status=${status}">${formatCount(n)}</a>` : '0'}</td>`;
  };
  return html`<section class="card" aria-labelledby="counts-title">
    <h2 id="counts-title">${t('overview.countsTitle')}</h2>
    <div class="table-scroll"><table>
      <thead><tr><th scope="col">${t('overview.colStatus')}</th><th scope="col" class="num">${t('overview.colInvoices')}</th><th scope="col" class="num">${t('overview.colCorrective')}</th></tr></thead>
      <tbody>
        ${ALL_STATUSES.map((s) => html`<tr><td data-label="${t('overview.colStatus')}">${statusBadge(s)}</td>${cell(s, false, t('overview.colInvoices'))}${cell(s, true, t('overview.colCorrective'))}</tr>`)}
      </tbody>
    </table></div>
  </section>`;
}

function problemsCard(problems: ProblemInvoice[]) {
  return html`<section class="card" aria-labelledby="problems-title">
    <h2 id="problems-title">${t('overview.problemsTitle')}</h2>
    ${
      problems.length === 0
        ? html`<p class="empty">${t('overview.noProblems')}</p>`
        : html`<table class="responsive">
      <thead><tr><th scope="col">${t('overview.colInvoice')}</th><th scope="col">${t('overview.colTaxpayer')}</th><th scope="col">${t('overview.colStatus')}</th><th scope="col">${t('overview.colAnswer')}</th><th scope="col">${t('overview.colWhen')}</th></tr></thead>
      <tbody>${problems.map(
        (p) => html`<tr>
          <td data-label="${t('overview.colInvoice')}"><a href="/app/invoices/${p.id}">${p.invoiceNumber}</a> <span class="muted">${p.invoiceType}, ${formatInvoiceDate(p.invoiceDate)}</span></td>
          <td data-label="${t('overview.colTaxpayer')}">${p.taxpayerName}</td>
          <td data-label="${t('overview.colStatus')}">${statusBadge(p.status)}</td>
          <td data-label="${t('overview.colAnswer')}">${p.code !== null ? html`<strong>${p.code}</strong> ` : ''}${codeInWords({ code: p.code, cause: p.errorCause }) ?? (p.message ? authorityMessageText(p.message) : p.lastError ? failureText(p.lastError) : '—')}</td>
          <td data-label="${t('overview.colWhen')}" class="nowrap">${formatDateTime(p.updatedAt)}</td>
        </tr>`,
      )}</tbody>
    </table>`
    }
  </section>`;
}

function pendingCard(pending: PendingForTaxpayer[], now: Date) {
  const nextSend = (p: PendingForTaxpayer) => {
    if (!p.nextSendAt) return t('overview.nextWithMessage');
    const wait = (p.nextSendAt.getTime() - now.getTime()) / 1000;
    return wait <= 0 ? t('overview.now') : t('overview.inWait', { at: formatDateTime(p.nextSendAt), wait: formatWait(wait) });
  };
  return html`<section class="card" aria-labelledby="pending-title">
    <h2 id="pending-title">${t('overview.pendingTitle')}</h2>
    <p class="hint">${t('overview.pendingHint')}</p>
    ${
      pending.length === 0
        ? html`<p class="empty">${t('overview.nothingPending')}</p>`
        : html`<table class="responsive">
      <thead><tr><th scope="col">${t('overview.colTaxpayer')}</th><th scope="col" class="num">${t('overview.colWaiting')}</th><th scope="col">${t('overview.colOldest')}</th><th scope="col">${t('overview.colNextSend')}</th></tr></thead>
      <tbody>${pending.map(
        (p) => html`<tr>
          <td data-label="${t('overview.colTaxpayer')}"><a href="/app/taxpayers/${p.taxpayerId}">${p.name}</a> <span class="muted">${p.nif}</span> ${environmentBadge(p.isProduction)}</td>
          <td class="num" data-label="${t('overview.colWaiting')}" data-testid="waiting">${formatCount(p.waiting)}</td>
          <td data-label="${t('overview.colOldest')}">${formatDateTime(p.oldestGeneratedAt)}</td>
          <td data-label="${t('overview.colNextSend')}" data-testid="next-send">${nextSend(p)}${p.consecutiveFailures > 0 ? html` <span class="badge badge--warn">${t('overview.failedAttempts', { count: p.consecutiveFailures })}</span>` : ''}</td>
        </tr>`,
      )}</tbody>
    </table>`
    }
  </section>`;
}

export function overviewPage(v: OverviewView): Page {
  return {
    title: t('overview.title'),
    nav: 'overview',
    body: () => html`<div class="page-header"><h1>${t('overview.title')}</h1><p class="muted">${t('overview.signedInAs', { name: v.accountName })}</p></div>
      ${outageWarning(v.outage)}
      <div class="grid">${usageCard(v)}</div>
      ${monthlyChart(v.months)}
      ${problemsCard(v.problems)}
      ${pendingCard(v.pending, v.now)}
      ${countsCard(v.counts)}`,
  };
}
