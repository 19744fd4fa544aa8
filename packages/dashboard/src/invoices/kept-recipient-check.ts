import type { TaxIdAnswerJson } from '@vf/contract';
import { formatDateTime } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { t } from '../i18n/i18n';
import { recipientCheckText } from '../tax-ids/recipient-check-text';

const RESULT_BADGES: Record<string, string> = { valid: 'accepted', invalid: 'rejected', unknown: 'pending' };

function row(a: TaxIdAnswerJson): SafeHtml {
  const [taxId, result, detail, source, when] = ['colTaxId', 'colResult', 'colDetail', 'colSource', 'colWhen'].map((k) =>
    t(`keptCheck.${k}`),
  );
  const said = recipientCheckText({ ...a, censusName: a.census_name, faultCode: a.fault_code });
  return html`<tr>
    <td data-label="${taxId}"><code>${a.nif ?? a.vat_number ?? ''}</code></td>
    <td data-label="${result}"><span class="badge badge--${RESULT_BADGES[a.result] ?? 'pending'}">${t(`keptCheck.result.${a.result}`, { defaultValue: a.result })}</span></td>
    <td data-label="${detail}">${said}${a.request_identifier ? html`<br><span class="muted">${t('keptCheck.consultation', { id: a.request_identifier })}</span>` : ''}</td>
    <td data-label="${source}">${t(`keptCheck.source.${a.source}`, { defaultValue: a.source })}</td>
    <td data-label="${when}">${formatDateTime(new Date(a.checked_at))}</td>
  </tr>`;
}

/**
 * What the census (Spanish NIFs) and VIES (EU VAT numbers) said of the recipients when the invoice was registered with
 * a recipient check: nothing when none was made.
 */
export function keptRecipientCheck(kept: unknown[] | null | undefined): SafeHtml {
  if (!kept || kept.length === 0) return html``;
  // Kept on the invoice as the API wrote it (`recipient_check` of `GET /invoices/{id}`).
  const answers = kept as TaxIdAnswerJson[];
  const cols = ['colTaxId', 'colResult', 'colDetail', 'colSource', 'colWhen'].map((k) => html`<th scope="col">${t(`keptCheck.${k}`)}</th>`);
  return html`<section class="card" aria-labelledby="recipient-check-title" data-testid="kept-recipient-check">
    <h2 id="recipient-check-title">${t('keptCheck.title')}</h2>
    <p class="hint">${t('keptCheck.lead')}</p>
    <table class="responsive">
      <thead><tr>${cols}</tr></thead>
      <tbody>${answers.map(row)}</tbody>
    </table>
  </section>`;
}
