import type { InvoiceListRow, InvoiceReferenceJson, RecipientJson } from '@vf/db';
import type { TaxpayerView } from '@vf/db';
import { errorSummary, inputField, selectField, type FormErrors } from '../html/form-fields';
import { formatAmount, formatCount, formatInvoiceDate } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { ALL_STATUSES, statusBadge, statusLabel } from '../html/status-badge';
import type { Page } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { tHtml } from '../i18n/t-html';
import { CORRECTIVE_TYPES, NORMAL_TYPES, SECTION_PATHS, typeLabel, type InvoiceSection } from './invoice-kinds';
import { partyId } from './invoice-content-facts';
import { codeInWords } from './authority-explanation';
import { DEFAULT_SORT, SORTS, type SortOption } from './invoice-sort-options';

/** The filter form's values as typed (all strings, '' = no filter). */
export interface InvoiceFilterValues {
  taxpayer_id: string;
  status: string;
  invoice_type: string;
  date_from: string;
  date_to: string;
  q: string;
}

export interface InvoiceListView {
  section: InvoiceSection;
  filters: InvoiceFilterValues;
  sort: SortOption;
  errors: FormErrors;
  taxpayers: TaxpayerView[];
  rows: InvoiceListRow[];
  total: number;
  /** False when `total` is an estimate (a list past the API's exact-count size). */
  totalExact?: boolean;
  page: number;
  pageSize: number;
}

const title = (section: InvoiceSection) => (section === 'corrective' ? t('invoices.correctiveTitle') : t('invoices.title'));

/** The list's query string with some values changed; filters, sort and page that are empty or default are left out. */
function queryOf(v: InvoiceListView, change: { sort?: SortOption; page?: number } = {}): string {
  const sort = change.sort ?? v.sort;
  const page = change.page ?? 1;
  const entries = Object.entries(v.filters).filter(([, x]) => x !== '');
  if (sort !== DEFAULT_SORT) entries.push(['sort', sort]);
  if (page > 1) entries.push(['page', String(page)]);
  return new URLSearchParams(entries).toString();
}

function link(v: InvoiceListView, path: string, change: { sort?: SortOption; page?: number } = {}): string {
  const query = queryOf(v, change);
  return query ? `${path}?${query}` : path;
}

function filterForm(v: InvoiceListView): SafeHtml {
  const types = v.section === 'corrective' ? CORRECTIVE_TYPES : NORMAL_TYPES;
  const f = v.filters;
  const filtered = Object.values(f).some((x) => x !== '');
  // Open, so it works without the script; on a phone the script folds it unless filters apply or need fixing.
  const fold = !filtered && Object.keys(v.errors).length === 0;
  return html`<details class="card filter-panel" data-testid="filters" open${fold ? html` data-fold-on-phone` : ''}>
    <summary>${t('invoices.filters')}</summary>
    <form method="get" action="${SECTION_PATHS[v.section]}" role="search" aria-label="${t('invoices.filterLabel', { what: title(v.section).toLowerCase() })}">
    ${errorSummary(v.errors)}
    <div class="filters">
      ${inputField({ name: 'q', label: t('invoices.numberContains'), type: 'search', value: f.q, errors: v.errors, markOptional: false, attrs: html` maxlength="60"` })}
      ${selectField({ name: 'taxpayer_id', label: t('invoices.taxpayer'), value: f.taxpayer_id, errors: v.errors, options: [['', t('invoices.allTaxpayers')], ...v.taxpayers.map((tp) => [tp.id, `${tp.name} (${tp.nif})`] as const)] })}
      ${selectField({ name: 'status', label: t('invoices.status'), value: f.status, errors: v.errors, options: [['', t('invoices.anyStatus')], ...ALL_STATUSES.map((s) => [s, statusLabel(s)] as const)] })}
      ${selectField({ name: 'invoice_type', label: t('invoices.type'), value: f.invoice_type, errors: v.errors, options: [['', t('invoices.anyType')], ...types.map((ty) => [ty, typeLabel(ty)] as const)] })}
      ${inputField({ name: 'date_from', label: t('invoices.dateFrom'), type: 'date', value: f.date_from, errors: v.errors, markOptional: false })}
      ${inputField({ name: 'date_to', label: t('invoices.dateTo'), type: 'date', value: f.date_to, errors: v.errors, markOptional: false })}
      ${selectField({ name: 'sort', label: t('invoices.sort'), value: v.sort, options: SORTS.map((s) => [s, t(`invoices.sortOptions.${s}`)] as const) })}
    </div>
    <div class="actions"><button type="submit" class="button">${t('invoices.apply')}</button><a href="${SECTION_PATHS[v.section]}">${t('invoices.clear')}</a></div>
    </form>
  </details>`;
}

function correctedList(refs: InvoiceReferenceJson[] | undefined): SafeHtml {
  if (!refs?.length) return html`<span class="muted">—</span>`;
  return html`${refs.map((r, i) => html`${i > 0 ? ', ' : ''}<span class="mono">${r.invoice_number}</span> <span class="muted">(${formatInvoiceDate(r.invoice_date)})</span>`)}`;
}

function recipientCell(r: RecipientJson | null): SafeHtml {
  if (!r) return html`<span class="muted">—</span>`;
  return html`${r.name} <span class="muted mono">${partyId(r)}</span>`;
}

/** A column header that sorts by it: the first click picks `first`, the next one turns it around. */
function sortableHeader(v: InvoiceListView, label: string, asc: SortOption, desc: SortOption, first: SortOption, cls = ''): SafeHtml {
  const current = v.sort === asc ? 'ascending' : v.sort === desc ? 'descending' : undefined;
  const next = v.sort === first ? (first === asc ? desc : asc) : first;
  const arrow = current === 'ascending' ? '▲' : current === 'descending' ? '▼' : '';
  const said = current === 'ascending' ? t('invoices.sortedAsc') : current === 'descending' ? t('invoices.sortedDesc') : '';
  return html`<th scope="col"${cls ? html` class="${cls}"` : ''}${current ? html` aria-sort="${current}"` : ''}><a href="${link(v, SECTION_PATHS[v.section], { sort: next })}" data-sort="${next}">${label}${
    arrow ? html` <span aria-hidden="true">${arrow}</span><span class="visually-hidden"> (${said})</span>` : ''
  }</a></th>`;
}

function table(v: InvoiceListView): SafeHtml {
  const names = new Map(v.taxpayers.map((tp) => [tp.id, tp.name]));
  const corrective = v.section === 'corrective';
  const col = (key: string) => t(`invoices.${key}`);
  return html`<div class="table-scroll"><table class="responsive invoice-table" data-testid="invoice-table">
    <thead><tr>
      ${sortableHeader(v, col('colNumber'), 'number_asc', 'number_desc', 'number_asc')}
      ${sortableHeader(v, col('colDate'), 'date_asc', 'date_desc', 'date_desc')}
      <th scope="col">${col('colType')}</th><th scope="col">${col('colTaxpayer')}</th><th scope="col">${col('colRecipient')}</th>
      ${corrective ? html`<th scope="col">${col('colCorrects')}</th>` : ''}
      <th scope="col" class="num">${col('colTax')}</th>
      ${sortableHeader(v, col('colTotal'), 'total_asc', 'total_desc', 'total_desc', 'num')}
      <th scope="col">${col('colStatus')}</th>
    </tr></thead>
    <tbody>${v.rows.map(
      (r) => html`<tr>
        <td data-label="${col('colNumber')}"><a href="/app/invoices/${r.id}">${r.invoiceNumber}</a></td>
        <td data-label="${col('colDate')}" class="nowrap">${formatInvoiceDate(r.invoiceDate)}</td>
        <td data-label="${col('colType')}"><abbr title="${typeLabel(r.invoiceType)}">${r.invoiceType}</abbr></td>
        <td data-label="${col('colTaxpayer')}">${names.get(r.taxpayerId) ?? '—'}</td>
        <td data-label="${col('colRecipient')}" data-testid="recipient">${recipientCell(r.recipient)}</td>
        ${corrective ? html`<td data-label="${col('colCorrects')}">${correctedList(r.correctedInvoices)}</td>` : ''}
        <td class="num nowrap" data-label="${col('colTax')}" data-testid="tax">${formatAmount(r.totalTaxAmount)}</td>
        <td class="num nowrap" data-label="${col('colTotal')}" data-testid="total">${formatAmount(r.totalAmount)}</td>
        <td data-label="${col('colStatus')}">${statusBadge(r.authorityStatus, r.id)}${r.authorityCode !== null ? html` <span class="muted" title="${codeInWords({ code: r.authorityCode }) ?? ''}">${t('invoices.code', { code: r.authorityCode })}</span>` : ''}</td>
      </tr>`,
    )}</tbody>
  </table></div>`;
}

/** 1 … 4 5 [6] 7 8 … 20: the first, the last and two either side of the current page. */
function pageNumbers(current: number, last: number): Array<number | 'gap'> {
  const shown = [...new Set([1, last, ...[-2, -1, 0, 1, 2].map((d) => current + d)])]
    .filter((n) => n >= 1 && n <= last)
    .sort((a, b) => a - b);
  return shown.flatMap((n, i) => (i > 0 && n - shown[i - 1] > 1 ? (['gap', n] as const) : [n]));
}

function pagination(v: InvoiceListView): SafeHtml {
  const last = Math.max(1, Math.ceil(v.total / v.pageSize));
  if (last === 1) return html``;
  const path = SECTION_PATHS[v.section];
  return html`<nav class="pagination" aria-label="${t('invoices.pages')}" data-testid="pagination"><ul>
    <li>${v.page > 1 ? html`<a href="${link(v, path, { page: v.page - 1 })}" rel="prev">${t('invoices.previous')}</a>` : ''}</li>
    ${pageNumbers(v.page, last).map((n) =>
      n === 'gap'
        ? html`<li aria-hidden="true">…</li>`
        : n === v.page
          ? html`<li><span aria-current="page" aria-label="${t('invoices.page', { n })}">${n}</span></li>`
          : html`<li><a href="${link(v, path, { page: n })}" aria-label="${t('invoices.page', { n })}">${n}</a></li>`,
    )}
    <li>${v.page < last ? html`<a href="${link(v, path, { page: v.page + 1 })}" rel="next">${t('invoices.next')}</a>` : ''}</li>
  </ul></nav>`;
}

function summaryLine(v: InvoiceListView): SafeHtml {
  const from = (v.page - 1) * v.pageSize + 1;
  const to = Math.min(v.total, v.page * v.pageSize);
  // The export carries the list's filters and order (every page of it, not only this one).
  const exportHref = link(v, `${SECTION_PATHS[v.section]}/export.csv`);
  return html`<div class="list-summary">
    <p data-testid="invoice-total"><strong>${v.totalExact === false ? t('invoices.countEstimate', { formatted: formatCount(v.total) }) : t('invoices.count', { count: v.total, formatted: formatCount(v.total) })}</strong>${v.rows.length > 0 ? html` · ${t('invoices.showing', { from: formatCount(from), to: formatCount(to) })}` : ''}</p>
    <a class="button button--secondary button--small" href="${exportHref}" download data-testid="export-csv">${t('invoices.export')}</a>
  </div>`;
}

export function invoiceListPage(v: InvoiceListView): Page {
  const filtered = Object.values(v.filters).some((x) => x !== '');
  const empty = filtered ? t('invoices.noMatch') : v.section === 'corrective' ? t('invoices.noCorrective') : t('invoices.none');
  return {
    title: title(v.section),
    nav: v.section,
    statusUrl: '/app/invoices/statuses',
    body: () => html`<div class="page-header"><h1>${title(v.section)}</h1>${
      v.section === 'corrective'
        ? ''
        : html`<div class="actions"><a class="button" href="/app/invoices/new" data-testid="new-invoice">${t('newInvoice.link')}</a></div>`
    }</div>
      <p class="lead">${tHtml(v.section === 'corrective' ? 'invoices.otherNormal' : 'invoices.otherCorrective')} ${t('invoices.polling')}</p>
      ${filterForm(v)}
      ${summaryLine(v)}
      ${v.rows.length === 0 ? html`<p class="empty">${empty}</p>` : table(v)}
      ${pagination(v)}`,
  };
}
