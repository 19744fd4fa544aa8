import type { TaxpayerView } from '@vf/db';
import { formatDate } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { t } from '../i18n/i18n';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Says plainly who signs this taxpayer's messages, and flags a certificate that has expired or will within
 * `expiryWarningDays` (the API's warning period).
 */
export function signingModeBadge(tp: TaxpayerView, now: Date, expiryWarningDays: number): SafeHtml {
  if (!tp.certificateSource || !tp.certificateNotAfter) {
    return html`<span class="badge badge--collaborator">${t('taxpayers.collaborator')}</span>`;
  }
  const days = Math.floor((tp.certificateNotAfter.getTime() - now.getTime()) / DAY_MS);
  if (days < 0)
    return html`<span class="badge badge--error">${t('taxpayers.expired', { date: formatDate(tp.certificateNotAfter) })}</span>`;
  if (days < expiryWarningDays) return html`<span class="badge badge--warn">${t('taxpayers.expiresIn', { count: days })}</span>`;
  return html`<span class="badge badge--accepted">${t('taxpayers.validUntil', { date: formatDate(tp.certificateNotAfter) })}</span>`;
}
