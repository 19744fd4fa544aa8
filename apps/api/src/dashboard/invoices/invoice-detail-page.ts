import type { InvoiceDetail, InvoiceRow, SubmissionRow } from '@vf/db/src/stores';
import type { InvoiceLink } from '@vf/db/src/stores/dashboard-invoice-store';
import { formatAmount, formatDateTime, formatInvoiceDate } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { environmentBadge, isFinalStatus, statusBadge } from '../html/status-badge';
import { csrfField, type PageContext } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { authorityExplanation, nextAttemptFact, resendForm } from './authority-explanation';
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

const RECORD_TYPE_LABELS: Record<string, string> = {
  registration: 'Alta · Registration',
  correction: 'Subsanación · Correction',
  cancellation: 'Anulación · Cancellation',
};

/** The operations-matrix flags a record carries, as they appear in its XML. */
function flagsText(r: InvoiceRow): string {
  const flags = [
    r.subsanacion ? 'Subsanacion=S' : '',
    r.rechazoPrevio ? `RechazoPrevio=${r.rechazoPrevio}` : '',
    r.sinRegistroPrevio ? 'SinRegistroPrevio=S' : '',
  ].filter(Boolean);
  return flags.length > 0 ? flags.join(', ') : '—';
}

/** Every record of the invoice, oldest first, each with what the authority answered and its XML. */
function recordHistory(invoiceId: string, records: InvoiceRow[]): SafeHtml {
  const latest = records[records.length - 1];
  return html`<table class="responsive" data-testid="record-history">
    <thead><tr><th scope="col">#</th><th scope="col">Registro · Record</th><th scope="col">Indicadores · Flags</th><th scope="col">Estado · Status</th><th scope="col">Respuesta · Answer</th><th scope="col">Generado · Generated</th><th scope="col">XML</th></tr></thead>
    <tbody>${records.map(
      (r) => html`<tr>
        <td data-label="#">${r.chainSeq}</td>
        <td data-label="Registro · Record">${RECORD_TYPE_LABELS[r.recordType] ?? r.recordType}${r.cancellationReason ? html`<br><span class="muted">${r.cancellationReason}</span>` : ''}</td>
        <td data-label="Indicadores · Flags"><code>${flagsText(r)}</code></td>
        <td data-label="Estado · Status">${statusBadge(r.authorityStatus)}</td>
        <td data-label="Respuesta · Answer">${r.authorityCode !== null ? html`<strong>${r.authorityCode}</strong> ` : ''}${
          // The latest record's answer is explained once, in the card above.
          r === latest ? '' : (r.authorityMessage ?? '')
        }${
          r.warnings.length > 0 ? html`<ul class="warnings">${r.warnings.map((w) => html`<li>${w.message}</li>`)}</ul>` : ''
        }</td>
        <td data-label="Generado · Generated"><code>${r.generatedAtLiteral}</code></td>
        <td data-label="XML"><a href="/app/invoices/${invoiceId}/records/${r.id}/xml" data-testid="record-xml-link">${r.recordType === 'cancellation' ? 'RegistroAnulacion' : 'RegistroAlta'}</a></td>
      </tr>`,
    )}</tbody>
  </table>`;
}

/** Correct and cancel; both append a record, so they are offered only while the invoice is not cancelled. */
function actions(ctx: PageContext, invoiceId: string, cancelled: boolean): SafeHtml {
  if (cancelled) return html`<p class="notice" data-testid="invoice-cancelled">Factura anulada · This invoice is cancelled.</p>`;
  return html`<section class="card" aria-labelledby="actions-title">
    <h2 id="actions-title">Corregir o anular · Correct or cancel</h2>
    <p><a class="button" href="/app/invoices/${invoiceId}/correct" data-testid="correct-invoice">Corregir · Correct</a>
      <span class="hint">Envía a la AEAT una subsanación con los datos corregidos · Sends the authority a correction (subsanación).</span></p>
    <details>
      <summary class="button button--danger">Anular · Cancel</summary>
      <form method="post" action="/app/invoices/${invoiceId}/cancel" class="stack" data-confirm="¿Anular esta factura? Se enviará a la AEAT un registro de anulación. · Cancel this invoice? A cancellation record will be sent to the authority.">
        ${csrfField(ctx)}
        <p>Anule solo una factura expedida por error; si hay que rectificarla, emita una factura rectificativa (R1–R5). · Cancel only an invoice issued by mistake; to amend one, issue a corrective invoice.</p>
        <div class="field">
          <label for="field-reason">Motivo · Reason <span class="muted">(opcional · optional)</span></label>
          <textarea id="field-reason" name="reason" rows="2" maxlength="500"></textarea>
        </div>
        <div class="check"><input id="field-confirm" name="confirm" type="checkbox" value="yes" required><label for="field-confirm">Confirmo la anulación · I confirm the cancellation</label></div>
        <button type="submit" class="button button--danger">Anular factura · Cancel invoice</button>
      </form>
    </details>
  </section>`;
}

const RECTIFICATION_LABELS: Record<string, string> = { S: 'S · by substitution (replaces the corrected amounts)', I: 'I · by differences (adds to the corrected amounts)' };

function recipientText(r: InvoiceDetail['invoice']['recipient']): SafeHtml {
  if (!r) return html`<span class="muted">none (no recipient on the invoice)</span>`;
  if ('nif' in r) return html`${r.name} · NIF <code>${r.nif}</code>`;
  return html`${r.name} · ${r.country} identifier type ${r.id_type}: <code>${r.id}</code>`;
}

/** NOTES §2.4: "QR tributario:" above the code and "VERI*FACTU" below it, the code at level M with its quiet zone. */
function qrBlock(id: string, qrUrl: string): SafeHtml {
  return html`<figure class="qr" aria-label="QR code as printed on the invoice">
    <p>QR tributario:</p>
    <img src="/app/invoices/${id}/qr.svg" width="160" height="160" alt="QR code linking to the tax authority's check of this invoice" data-testid="invoice-qr">
    <p>VERI*FACTU</p>
  </figure>
  <p class="hint">Encodes <a href="${qrUrl}" rel="noopener noreferrer"><code>${qrUrl}</code></a>. Print it 30 to 40 mm wide. Download: <a href="/app/invoices/${id}/qr.png" download>PNG</a> · <a href="/app/invoices/${id}/qr.svg" download>SVG</a>.</p>`;
}

function breakdown(lines: InvoiceDetail['lines']): SafeHtml {
  return html`<table class="responsive">
    <thead><tr><th scope="col">Tax</th><th scope="col">Regime</th><th scope="col">Operation</th><th scope="col" class="num">Base</th><th scope="col" class="num">Rate</th><th scope="col" class="num">Tax amount</th><th scope="col" class="num">Surcharge</th></tr></thead>
    <tbody>${lines.map(
      (l) => html`<tr>
        <td data-label="Tax">${l.taxType}</td>
        <td data-label="Regime">${l.regimeType ?? '—'}</td>
        <td data-label="Operation">${l.operationType}</td>
        <td class="num" data-label="Base">${formatAmount(l.baseAmount)}</td>
        <td class="num" data-label="Rate">${l.taxRate !== null ? `${l.taxRate} %` : '—'}</td>
        <td class="num" data-label="Tax amount">${l.taxAmount !== null ? formatAmount(l.taxAmount) : '—'}</td>
        <td class="num" data-label="Surcharge">${l.surchargeAmount !== null ? html`${formatAmount(l.surchargeAmount)} (${l.surchargeRate} %)` : '—'}</td>
      </tr>`,
    )}</tbody>
  </table>`;
}

function timeline(events: InvoiceDetail['events']): SafeHtml {
  return html`<ol class="timeline">${events.map(
    (e) => html`<li><time datetime="${e.at.toISOString()}">${formatDateTime(e.at)}</time>${statusBadge(e.status)}${e.code !== null ? html` <strong>code ${e.code}</strong>` : ''}${e.message ? html` ${e.message}` : ''}</li>`,
  )}</ol>`;
}

function submissionBlock(s: SubmissionRow, n: number): SafeHtml {
  return html`<details>
    <summary>Submission ${n}: ${formatDateTime(s.startedAt)} · ${s.outcome.replace('_', ' ')}${s.httpStatus !== null ? ` · HTTP ${s.httpStatus}` : ''}</summary>
    <dl class="facts">
      <dt>Endpoint</dt><dd><code>${s.endpoint}</code></dd>
      <dt>Signed with</dt><dd>${s.certificateMode === 'platform' ? 'the platform\'s certificate (social collaborator)' : 'the taxpayer\'s certificate'}</dd>
      <dt>Records in message</dt><dd>${s.recordCount}${s.incident ? ' · sent late, marked Incidencia=S' : ''}</dd>
      ${s.faultCode ? html`<dt>SOAP fault</dt><dd>${s.faultCode}</dd>` : ''}
      ${s.errorMessage ? html`<dt>Error</dt><dd>${s.errorMessage}</dd>` : ''}
      ${s.csv ? html`<dt>CSV</dt><dd><code>${s.csv}</code></dd>` : ''}
      ${s.waitSeconds !== null ? html`<dt>Next send after</dt><dd>${s.waitSeconds} s (TiempoEsperaEnvio)</dd>` : ''}
      <dt>Finished</dt><dd>${formatDateTime(s.finishedAt)}</dd>
    </dl>
    <h4>Request XML</h4>
    <pre class="xml"><code>${s.requestXml}</code></pre>
    <h4>Response XML</h4>
    ${s.responseXml ? html`<pre class="xml"><code>${s.responseXml}</code></pre>` : html`<p class="empty">No response was received.</p>`}
  </details>`;
}

export function invoiceDetailPage(v: InvoiceDetailView): Page {
  // The current state is the latest record; the invoice itself is addressed by its first record's id.
  const i = { ...v.detail.invoice, id: v.detail.records[0].id };
  const section = sectionOf(i.invoiceType);
  const corrective = section === 'corrective';
  const explained = authorityExplanation(i);
  return {
    title: `Invoice ${i.invoiceNumber}`,
    nav: section,
    statusUrl: '/app/invoices/statuses',
    body: (ctx) => html`<p class="breadcrumb"><a href="${SECTION_PATHS[section]}">${corrective ? 'Corrective invoices' : 'Invoices'}</a></p>
      <div class="page-header">
        <h1>${corrective ? 'Corrective invoice' : 'Invoice'} ${i.invoiceNumber}</h1>
        <div class="actions">Status: ${statusBadge(i.authorityStatus, i.id)} ${environmentBadge(i.isProduction)}${
          v.detail.cancelled ? html` <span class="badge badge--rejected">Anulada · Cancelled</span>` : ''
        }</div>
      </div>
      ${v.notice ?? ''}
      <p class="notice" data-refresh-hint="${i.id}" hidden>The authority has answered. <a href="/app/invoices/${i.id}">Reload the page</a> to see its full response.</p>
      <div class="grid">
        <section class="card" aria-labelledby="answer-title">
          <h2 id="answer-title">Authority's answer</h2>
          <dl class="facts">
            <dt>Status</dt><dd>${statusBadge(i.authorityStatus, i.id)}</dd>
            <dt>Code and message</dt><dd data-authority-for="${i.id}">${explained ?? html`${i.authorityCode !== null ? html`<strong>${i.authorityCode}</strong>: ` : ''}${i.authorityMessage ?? (i.authorityCode !== null ? '' : isFinalStatus(i.authorityStatus) ? 'none' : 'none yet')}`}</dd>
            ${nextAttemptFact(i)}
            <dt>CSV</dt><dd>${i.authorityCsv ? html`<code>${i.authorityCsv}</code>` : 'none yet'}</dd>
            ${i.lastError && !explained ? html`<dt>Last error</dt><dd>${i.lastError}</dd>` : ''}
            <dt>Send attempts</dt><dd>${i.sendAttempts}</dd>
          </dl>
          ${resendForm(ctx, i)}
        </section>
        <section class="card" aria-labelledby="qr-title">
          <h2 id="qr-title">QR code</h2>
          ${qrBlock(i.id, i.qrUrl)}
        </section>
      </div>
      <section class="card" aria-labelledby="invoice-title">
        <h2 id="invoice-title">Invoice</h2>
        <dl class="facts">
          <dt>Type</dt><dd>${typeLabel(i.invoiceType)}</dd>
          <dt>Number</dt><dd><code>${i.invoiceNumber}</code></dd>
          <dt>Date</dt><dd>${formatInvoiceDate(i.invoiceDate)}</dd>
          ${i.operationDate ? html`<dt>Operation date</dt><dd>${formatInvoiceDate(i.operationDate)}</dd>` : ''}
          <dt>Issuer</dt><dd><a href="/app/taxpayers/${i.taxpayerId}">${v.taxpayerName}</a> · as sent: ${i.issuerName}, NIF <code>${i.issuerNif}</code></dd>
          <dt>Recipient</dt><dd>${recipientText(i.recipient)}</dd>
          <dt>Description</dt><dd>${i.description}</dd>
          ${corrective
            ? html`<dt>Corrects</dt><dd>${i.correctedInvoices.length === 0 ? 'no reference' : html`<ul>${i.correctedInvoices.map((r) => {
                const original = v.links.corrects.find((o) => o.invoiceNumber === r.invoice_number && o.invoiceDate === r.invoice_date);
                const label = html`<code>${r.invoice_number}</code>`;
                return html`<li>${original ? html`<a href="/app/invoices/${original.id}" data-testid="corrects-link">${label}</a>` : label} of ${formatInvoiceDate(r.invoice_date)}</li>`;
              })}</ul>`}</dd>
              <dt>Correction method</dt><dd>${i.rectificationType ? RECTIFICATION_LABELS[i.rectificationType] ?? i.rectificationType : '—'}</dd>
              ${i.rectifiedBaseAmount !== null ? html`<dt>Corrected base / tax</dt><dd>${formatAmount(i.rectifiedBaseAmount)} / ${formatAmount(i.rectifiedTaxAmount ?? '0.00')}</dd>` : ''}`
            : ''}
          ${v.links.correctedBy.length > 0
            ? html`<dt>Rectificada por · Corrected by</dt><dd><ul>${v.links.correctedBy.map((c) => html`<li><a href="/app/invoices/${c.id}" data-testid="corrected-by-link">${c.invoiceNumber}</a></li>`)}</ul></dd>`
            : ''}
          <dt>Total tax</dt><dd>${formatAmount(i.totalTaxAmount)}</dd>
          <dt>Total</dt><dd><strong>${formatAmount(i.totalAmount)}</strong></dd>
        </dl>
        <h3>Breakdown</h3>
        ${breakdown(v.detail.lines)}
      </section>
      <section class="card" aria-labelledby="record-title">
        <h2 id="record-title">Record and chain</h2>
        <dl class="facts">
          <dt>Record type</dt><dd>${RECORD_TYPE_LABELS[i.recordType] ?? i.recordType}</dd>
          <dt>Generated at</dt><dd><code>${i.generatedAtLiteral}</code></dd>
          <dt>Position in chain</dt><dd>${i.chainSeq} · <a href="/app/taxpayers/${i.taxpayerId}/chain">chain of ${v.taxpayerName}</a></dd>
          <dt>Hash (huella)</dt><dd><code data-testid="invoice-hash">${i.hash}</code></dd>
          <dt>Previous hash</dt><dd>${i.previousHash ? html`<code>${i.previousHash}</code>` : 'none: first record of the chain'}</dd>
          <dt>Previous record</dt><dd>${v.neighbours.previous ? html`<a href="/app/invoices/${v.neighbours.previous.id}" rel="prev">${v.neighbours.previous.invoiceNumber}</a>` : '—'}</dd>
          <dt>Next record</dt><dd>${v.neighbours.next ? html`<a href="/app/invoices/${v.neighbours.next.id}" rel="next">${v.neighbours.next.invoiceNumber}</a>` : '—'}</dd>
          <dt>Computer system</dt><dd>${i.systemSnapshot.NombreSistemaInformatico} ${i.systemSnapshot.Version} (${i.systemSnapshot.IdSistemaInformatico}) by ${i.systemSnapshot.NombreRazon}, installation ${i.systemSnapshot.NumeroInstalacion}</dd>
          <dt>Id</dt><dd><code>${i.id}</code></dd>
        </dl>
      </section>
      ${actions(ctx, i.id, v.detail.cancelled)}
      <section class="card" aria-labelledby="records-title">
        <h2 id="records-title">Registros de la factura · Records of this invoice</h2>
        ${recordHistory(i.id, v.detail.records)}
      </section>
      <section class="card" aria-labelledby="timeline-title">
        <h2 id="timeline-title">Status history</h2>
        ${timeline(v.detail.events)}
      </section>
      <section aria-labelledby="submissions-title">
        <h2 id="submissions-title">Submissions to the authority</h2>
        ${v.submissions.length === 0 ? html`<p class="empty">Not sent yet.</p>` : v.submissions.map((s, n) => submissionBlock(s, v.submissions.length - n))}
      </section>`,
  };
}
