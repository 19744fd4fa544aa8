import type { AuthorityStatus } from '@vf/core';
import { formatCount, formatMonth, formatMonthName } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { ALL_STATUSES, statusLabel } from '../html/status-badge';
import { t } from '../i18n/i18n';
import type { MonthCounts } from '@vf/contract';

const WIDTH = 720;
const HEIGHT = 260;
const PLOT = { left: 48, right: 8, top: 12, bottom: 44 };
const GRID_LINES = 4;

function monthParts(yearMonth: string): [name: string, year: string] {
  return [formatMonthName(yearMonth), yearMonth.slice(0, 4)];
}

/** The smallest "round" number (1, 2 or 5 times a power of ten) at or above `n`, so gridlines fall on round counts. */
function niceCeiling(n: number): number {
  if (n <= GRID_LINES) return GRID_LINES;
  const step = n / GRID_LINES;
  const power = 10 ** Math.floor(Math.log10(step));
  const nice = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= step)!;
  return nice * GRID_LINES;
}

function legend(): SafeHtml {
  return html`<ul class="chart-legend" aria-hidden="true">${ALL_STATUSES.map((s) => html`<li><span class="chart-swatch chart--${s}"></span>${statusLabel(s)}</li>`)}</ul>`;
}

/** The same figures as the bars, for screen readers and for anyone who wants the numbers. */
function dataTable(months: MonthCounts[]): SafeHtml {
  return html`<details class="chart-data">
    <summary>${t('chart.tableToggle')}</summary>
    <div class="table-scroll"><table data-testid="chart-table">
      <caption class="visually-hidden">${t('chart.title')}</caption>
      <thead><tr><th scope="col">${t('chart.month')}</th>${ALL_STATUSES.map((s) => html`<th scope="col" class="num">${statusLabel(s)}</th>`)}<th scope="col" class="num">${t('chart.total')}</th></tr></thead>
      <tbody>${months.map(
        (m) =>
          html`<tr><th scope="row">${formatMonth(m.month)}</th>${ALL_STATUSES.map((s) => html`<td class="num">${formatCount(m.counts[s])}</td>`)}<td class="num">${formatCount(m.total)}</td></tr>`,
      )}</tbody>
    </table></div>
  </details>`;
}

/**
 * Registrations per month, stacked by status, drawn on the server as SVG (no script, no library). The SVG is an
 * image with a title and a description giving the totals; the table below holds every figure.
 */
export function monthlyChart(months: MonthCounts[]): SafeHtml {
  const grandTotal = months.reduce((a, m) => a + m.total, 0);
  const byStatus = ALL_STATUSES.map((s) => [s, months.reduce((a, m) => a + m.counts[s], 0)] as const).filter(([, n]) => n > 0);
  const description = `${t('chart.desc', { from: formatMonth(months[0].month), to: formatMonth(months[months.length - 1].month), total: formatCount(grandTotal) })}${
    byStatus.length ? ` ${byStatus.map(([s, n]) => `${statusLabel(s)}: ${formatCount(n)}`).join('; ')}.` : ''
  }`;
  const top = niceCeiling(Math.max(0, ...months.map((m) => m.total)));
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = plotWidth / months.length;
  const barWidth = slot * 0.64;
  const y = (n: number) => PLOT.top + plotHeight - (n / top) * plotHeight;
  const round = (n: number) => Math.round(n * 10) / 10;

  const grid = Array.from({ length: GRID_LINES + 1 }, (_, i) => {
    const value = (top / GRID_LINES) * i;
    return html`<g class="chart-grid"><line x1="${PLOT.left}" x2="${WIDTH - PLOT.right}" y1="${round(y(value))}" y2="${round(y(value))}"/><text x="${PLOT.left - 6}" y="${round(y(value)) + 4}" text-anchor="end">${formatCount(value)}</text></g>`;
  });

  const bars = months.map((m, i) => {
    const x = round(PLOT.left + slot * i + (slot - barWidth) / 2);
    let below = 0;
    const segments = ALL_STATUSES.filter((s) => m.counts[s] > 0).map((s: AuthorityStatus) => {
      const n = m.counts[s];
      const rect = html`<rect class="chart--${s}" x="${x}" y="${round(y(below + n))}" width="${round(barWidth)}" height="${round(y(below) - y(below + n))}" data-status="${s}" data-count="${n}"><title>${formatMonth(m.month)} · ${statusLabel(s)}: ${formatCount(n)}</title></rect>`;
      below += n;
      return rect;
    });
    // The month under each bar, its year under the first bar and under each January: twelve labels that never touch.
    const [name, year] = monthParts(m.month);
    const labelX = round(x + barWidth / 2);
    return html`<g data-month="${m.month}">${segments}<text class="chart-label" x="${labelX}" y="${HEIGHT - PLOT.bottom + 18}" text-anchor="middle">${name}${
      i === 0 || m.month.endsWith('-01') ? html`<tspan x="${labelX}" dy="15">${year}</tspan>` : ''
    }</text></g>`;
  });

  return html`<section class="card" aria-labelledby="chart-heading" data-testid="monthly-chart">
    <h2 id="chart-heading">${t('chart.title')}</h2>
    ${grandTotal === 0 ? html`<p class="empty">${t('chart.empty')}</p>` : ''}
    <div class="chart-frame">
      <svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-svg-title chart-svg-desc" focusable="false" xmlns="http://www.w3.org/2000/svg">
        <title id="chart-svg-title">${t('chart.title')}</title>
        <desc id="chart-svg-desc">${description}</desc>
        ${grid}
        ${bars}
      </svg>
    </div>
    ${legend()}
    ${dataTable(months)}
  </section>`;
}
