import type { InvoiceRow, RecipientJson } from '@vf/db';
import { formatInvoiceDate } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { t } from '../i18n/i18n';

/** The identifier of a recipient or third party in one word or two: its NIF, or its country and foreign id. */
export function partyId(r: RecipientJson): string {
  if ('nif' in r) return r.nif;
  return r.country === undefined ? r.id : `${r.country} ${r.id}`;
}

/** A recipient or third party as the record identifies it: Spanish NIF, foreign identifier, or EU VAT number alone. */
export function partyText(r: RecipientJson): SafeHtml {
  if ('nif' in r) return html`${r.name} · NIF <code>${r.nif}</code>`;
  if (r.country === undefined) return html`${t('detail.euVatId', { name: r.name })} <code>${r.id}</code>`;
  return html`${t('detail.foreignId', { name: r.name, country: r.country, idType: r.id_type })} <code>${r.id}</code>`;
}

/** Destinatarios: one line for the usual single recipient, a list when the invoice names several. */
export function recipientsFact(i: InvoiceRow): SafeHtml {
  const all = i.recipient ? [i.recipient, ...i.additionalRecipients] : [];
  if (all.length === 0) return html`<dt>${t('detail.recipient')}</dt><dd><span class="muted">${t('detail.noRecipient')}</span></dd>`;
  if (all.length === 1) return html`<dt>${t('detail.recipient')}</dt><dd>${partyText(all[0])}</dd>`;
  return html`<dt>${t('detail.recipients')}</dt><dd><ol data-testid="recipients">${all.map((r) => html`<li>${partyText(r)}</li>`)}</ol></dd>`;
}

/**
 * What else the record says about the invoice, each only when it applies: who issued it on the issuer's behalf
 * (EmitidaPorTerceroODestinatario, Tercero), its qualifying flags and the simplified invoices an F3 replaces.
 */
export function recordContentFacts(i: InvoiceRow): SafeHtml {
  const flags = [
    i.simplifiedArt7273 ? t('detail.simplifiedArt7273') : '',
    i.withoutRecipientArt61d ? t('detail.withoutRecipientArt61d') : '',
    i.coupon ? t('detail.coupon') : '',
  ].filter(Boolean);
  return html`${
    i.issuedBy === 'D'
      ? html`<dt>${t('detail.issuedBy')}</dt><dd data-testid="issued-by">${t('detail.issuedByRecipient')}</dd>`
      : i.issuedBy === 'T'
        ? html`<dt>${t('detail.issuedBy')}</dt><dd data-testid="issued-by">${t('detail.issuedByThirdParty')} ${i.thirdParty ? partyText(i.thirdParty) : ''}</dd>`
        : ''
  }${flags.length > 0 ? html`<dt>${t('detail.qualifiers')}</dt><dd data-testid="qualifiers"><ul>${flags.map((f) => html`<li>${f}</li>`)}</ul></dd>` : ''}${
    i.substitutedInvoices.length > 0
      ? html`<dt>${t('detail.substitutes')}</dt><dd data-testid="substitutes"><ul>${i.substitutedInvoices.map(
          (r) => html`<li><code>${r.invoice_number}</code> ${t('detail.ofDate', { date: formatInvoiceDate(r.invoice_date) })}</li>`,
        )}</ul></dd>`
      : ''
  }`;
}
