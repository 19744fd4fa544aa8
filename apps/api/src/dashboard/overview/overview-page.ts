import type { AuthorityStatus } from '@vf/db';
import type { PendingForTaxpayer, ProblemInvoice, StatusCount } from '@vf/db/src/stores/dashboard-overview-store';
import type { OutageSummary } from '@vf/db/src/stores/send-state-store';
import { formatDateTime, formatInvoiceDate, formatWait } from '../html/format';
import { html } from '../html/html';
import { ALL_STATUSES, environmentBadge, statusBadge } from '../html/status-badge';
import type { Page } from '../http/page-renderer';
import { SECTION_PATHS } from '../invoices/invoice-kinds';

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
  now: Date;
}

// The law asks for a warning with the number of records waiting while an incident keeps them from the authority.
function outageWarning(o: OutageSummary | undefined) {
  if (!o) return '';
  const since = formatDateTime(o.since);
  return html`<div class="notice notice--warn" role="alert" data-testid="outage-warning">
    <p lang="es"><strong>${o.waitingRecords.toLocaleString('es-ES')} ${o.waitingRecords === 1 ? 'registro espera' : 'registros esperan'} a la AEAT</strong> porque no responde desde el ${since}. El servicio los reenvía solo, en orden y al menos cada hora; no tienes que hacer nada.</p>
    <p lang="en" class="muted">${o.waitingRecords.toLocaleString('en-GB')} ${o.waitingRecords === 1 ? 'record is' : 'records are'} waiting because the authority has not answered since ${since}. They are resent automatically, in order, at least hourly.</p>
  </div>`;
}

function usageCard(v: OverviewView) {
  const share = v.monthlyQuota > 0 ? Math.min(100, Math.round((v.usage.used / v.monthlyQuota) * 100)) : 100;
  return html`<section class="card" aria-labelledby="usage-title">
    <h2 id="usage-title">This month's usage</h2>
    <p class="stat" data-testid="usage">${v.usage.used.toLocaleString('en-GB')} <small>of ${v.monthlyQuota.toLocaleString('en-GB')} invoices</small></p>
    <progress max="${v.monthlyQuota}" value="${Math.min(v.usage.used, v.monthlyQuota)}" aria-label="Share of the monthly quota used">${share}%</progress>
    <p class="hint">${v.planName} plan · ${v.usage.remaining.toLocaleString('en-GB')} left · the count starts again on ${formatDateTime(v.usage.resetsAt)}.</p>
    ${share >= 90 ? html`<p class="notice notice--warn">You have used ${share}% of this month's quota. Registrations beyond it are refused until the count resets.</p>` : ''}
  </section>`;
}

function countsCard(counts: StatusCount[]) {
  const of = (status: AuthorityStatus, corrective: boolean) => counts.find((c) => c.status === status && c.corrective === corrective)?.n ?? 0;
  const cell = (status: AuthorityStatus, corrective: boolean, label: string) => {
    const n = of(status, corrective);
    const path = SECTION_PATHS[corrective ? 'corrective' : 'invoices'];
    return html`<td class="num" data-label="${label}">${n > 0 ? html`<a href="${path}?status=${status}">${n.toLocaleString('en-GB')}</a>` : '0'}</td>`;
  };
  return html`<section class="card" aria-labelledby="counts-title">
    <h2 id="counts-title">Invoices by status</h2>
    <table>
      <thead><tr><th scope="col">Status</th><th scope="col" class="num">Invoices</th><th scope="col" class="num">Corrective</th></tr></thead>
      <tbody>
        ${ALL_STATUSES.map((s) => html`<tr><td data-label="Status">${statusBadge(s)}</td>${cell(s, false, 'Invoices')}${cell(s, true, 'Corrective')}</tr>`)}
      </tbody>
    </table>
  </section>`;
}

function problemsCard(problems: ProblemInvoice[]) {
  return html`<section class="card" aria-labelledby="problems-title">
    <h2 id="problems-title">Latest rejections, errors and warnings</h2>
    ${problems.length === 0
      ? html`<p class="empty">None: the authority has not refused or flagged any of your invoices.</p>`
      : html`<table class="responsive">
      <thead><tr><th scope="col">Invoice</th><th scope="col">Taxpayer</th><th scope="col">Status</th><th scope="col">Authority's answer</th><th scope="col">When</th></tr></thead>
      <tbody>${problems.map(
        (p) => html`<tr>
          <td data-label="Invoice"><a href="/app/invoices/${p.id}">${p.invoiceNumber}</a> <span class="muted">${p.invoiceType}, ${formatInvoiceDate(p.invoiceDate)}</span></td>
          <td data-label="Taxpayer">${p.taxpayerName}</td>
          <td data-label="Status">${statusBadge(p.status)}</td>
          <td data-label="Answer">${p.code !== null ? html`<strong>${p.code}</strong> ` : ''}${p.message ?? p.lastError ?? '—'}</td>
          <td data-label="When">${formatDateTime(p.updatedAt)}</td>
        </tr>`,
      )}</tbody>
    </table>`}
  </section>`;
}

function pendingCard(pending: PendingForTaxpayer[], now: Date) {
  const nextSend = (p: PendingForTaxpayer) => {
    if (!p.nextSendAt) return 'with the next message (no send yet)';
    const wait = (p.nextSendAt.getTime() - now.getTime()) / 1000;
    return wait <= 0 ? 'now' : `${formatDateTime(p.nextSendAt)} (in ${formatWait(wait)})`;
  };
  return html`<section class="card" aria-labelledby="pending-title">
    <h2 id="pending-title">Waiting for the authority</h2>
    <p class="hint">The authority allows one message per taxpayer per waiting time (it starts at 60 s and each answer may change it), unless 1,000 records are waiting.</p>
    ${pending.length === 0
      ? html`<p class="empty">Nothing is waiting: every registered invoice has an answer.</p>`
      : html`<table class="responsive">
      <thead><tr><th scope="col">Taxpayer</th><th scope="col" class="num">Records waiting</th><th scope="col">Oldest generated</th><th scope="col">Next send allowed</th></tr></thead>
      <tbody>${pending.map(
        (p) => html`<tr>
          <td data-label="Taxpayer"><a href="/app/taxpayers/${p.taxpayerId}">${p.name}</a> <span class="muted">${p.nif}</span> ${environmentBadge(p.isProduction)}</td>
          <td class="num" data-label="Waiting">${p.waiting.toLocaleString('en-GB')}</td>
          <td data-label="Oldest">${formatDateTime(p.oldestGeneratedAt)}</td>
          <td data-label="Next send">${nextSend(p)}${p.consecutiveFailures > 0 ? html` <span class="badge badge--warn">${p.consecutiveFailures} failed attempt${p.consecutiveFailures === 1 ? '' : 's'}, retrying</span>` : ''}</td>
        </tr>`,
      )}</tbody>
    </table>`}
  </section>`;
}

export function overviewPage(v: OverviewView): Page {
  return {
    title: 'Overview',
    nav: 'overview',
    body: () => html`<div class="page-header"><h1>Overview</h1><p class="muted">Signed in as ${v.accountName}</p></div>
      ${outageWarning(v.outage)}
      <div class="grid">${usageCard(v)}</div>
      ${problemsCard(v.problems)}
      ${pendingCard(v.pending, v.now)}
      ${countsCard(v.counts)}`,
  };
}
