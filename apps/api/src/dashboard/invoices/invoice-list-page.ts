import type { InvoiceReferenceJson } from '@vf/db';
import type { InvoiceSummary, TaxpayerView } from '@vf/db/src/stores';
import { errorSummary, inputField, selectField, type FormErrors } from '../html/form-fields';
import { formatAmount, formatInvoiceDate } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { ALL_STATUSES, STATUS_LABELS, statusBadge } from '../html/status-badge';
import type { Page } from '../http/page-renderer';
import { CORRECTIVE_TYPES, NORMAL_TYPES, SECTION_PATHS, TYPE_LABELS, type InvoiceSection } from './invoice-kinds';

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
  errors: FormErrors;
  taxpayers: TaxpayerView[];
  rows: InvoiceSummary[];
  corrected: Map<string, InvoiceReferenceJson[]>;
  /** Query string of the next page, or undefined on the last one. */
  nextPage?: string;
  isFirstPage: boolean;
}

const TITLES: Record<InvoiceSection, string> = { invoices: 'Invoices', corrective: 'Corrective invoices' };

function filterForm(v: InvoiceListView): SafeHtml {
  const types = v.section === 'corrective' ? CORRECTIVE_TYPES : NORMAL_TYPES;
  const f = v.filters;
  return html`<form method="get" action="${SECTION_PATHS[v.section]}" class="card" role="search" aria-label="Filter ${TITLES[v.section].toLowerCase()}">
    ${errorSummary(v.errors)}
    <div class="filters">
      ${inputField({ name: 'q', label: 'Number contains', type: 'search', value: f.q, errors: v.errors, markOptional: false, attrs: html` maxlength="60"` })}
      ${selectField({ name: 'taxpayer_id', label: 'Taxpayer', value: f.taxpayer_id, errors: v.errors, options: [['', 'All taxpayers'], ...v.taxpayers.map((t) => [t.id, `${t.name} (${t.nif})`] as const)] })}
      ${selectField({ name: 'status', label: 'Status', value: f.status, errors: v.errors, options: [['', 'Any status'], ...ALL_STATUSES.map((s) => [s, STATUS_LABELS[s]] as const)] })}
      ${selectField({ name: 'invoice_type', label: 'Type', value: f.invoice_type, errors: v.errors, options: [['', 'Any type'], ...types.map((t) => [t, TYPE_LABELS[t]] as const)] })}
      ${inputField({ name: 'date_from', label: 'Dated from', type: 'date', value: f.date_from, errors: v.errors, markOptional: false })}
      ${inputField({ name: 'date_to', label: 'Dated until', type: 'date', value: f.date_to, errors: v.errors, markOptional: false })}
    </div>
    <div class="actions"><button type="submit" class="button">Apply filters</button><a href="${SECTION_PATHS[v.section]}">Clear filters</a></div>
  </form>`;
}

function correctedList(refs: InvoiceReferenceJson[] | undefined): SafeHtml {
  if (!refs?.length) return html`<span class="muted">—</span>`;
  return html`${refs.map((r, i) => html`${i > 0 ? ', ' : ''}<span class="mono">${r.invoice_number}</span> <span class="muted">(${formatInvoiceDate(r.invoice_date)})</span>`)}`;
}

function table(v: InvoiceListView): SafeHtml {
  const names = new Map(v.taxpayers.map((t) => [t.id, t.name]));
  const corrective = v.section === 'corrective';
  return html`<table class="responsive" data-testid="invoice-table">
    <thead><tr>
      <th scope="col">Number</th><th scope="col">Date</th><th scope="col">Type</th><th scope="col">Taxpayer</th>
      ${corrective ? html`<th scope="col">Corrects</th>` : ''}
      <th scope="col" class="num">Total</th><th scope="col">Status</th>
    </tr></thead>
    <tbody>${v.rows.map(
      (r) => html`<tr>
        <td data-label="Number"><a href="/app/invoices/${r.id}">${r.invoiceNumber}</a></td>
        <td data-label="Date">${formatInvoiceDate(r.invoiceDate)}</td>
        <td data-label="Type"><abbr title="${TYPE_LABELS[r.invoiceType] ?? r.invoiceType}">${r.invoiceType}</abbr></td>
        <td data-label="Taxpayer">${names.get(r.taxpayerId) ?? '—'}</td>
        ${corrective ? html`<td data-label="Corrects">${correctedList(v.corrected.get(r.id))}</td>` : ''}
        <td class="num" data-label="Total">${formatAmount(r.totalAmount)}</td>
        <td data-label="Status">${statusBadge(r.authorityStatus, r.id)}${r.authorityCode !== null ? html` <span class="muted">code ${r.authorityCode}</span>` : ''}</td>
      </tr>`,
    )}</tbody>
  </table>`;
}

export function invoiceListPage(v: InvoiceListView): Page {
  const title = TITLES[v.section];
  const other = v.section === 'corrective' ? html`Normal invoices (F1, F2, F3) are under <a href="/app/invoices">Invoices</a>.` : html`Corrective invoices (R1 to R5) have <a href="/app/corrective-invoices">their own section</a>.`;
  const filtered = Object.values(v.filters).some((x) => x !== '');
  return {
    title,
    nav: v.section,
    statusUrl: '/app/invoices/statuses',
    body: () => html`<div class="page-header"><h1>${title}</h1></div>
      <p class="lead">${other} Statuses update by themselves while invoices wait for the authority.</p>
      ${filterForm(v)}
      ${v.rows.length === 0
        ? html`<p class="empty">${filtered ? 'No invoices match these filters.' : v.section === 'corrective' ? 'No corrective invoices yet.' : 'No invoices yet. Register them with POST /api/v1/invoices.'}</p>`
        : table(v)}
      <nav class="pagination" aria-label="Pages">
        <span>${v.isFirstPage ? '' : html`<a href="${SECTION_PATHS[v.section]}?${new URLSearchParams(Object.entries(v.filters).filter(([, x]) => x !== '')).toString()}">First page</a>`}</span>
        <span>${v.nextPage ? html`<a href="${SECTION_PATHS[v.section]}?${v.nextPage}" rel="next">Next page</a>` : ''}</span>
      </nav>`,
  };
}
