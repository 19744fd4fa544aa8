import type { TaxpayerView } from '@vf/db/src/stores';
import { EXPIRY_WARNING_DAYS } from '../../taxpayers/taxpayer-view';
import { formatDate } from '../html/format';
import { html, type SafeHtml } from '../html/html';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Says plainly who signs this taxpayer's messages, and flags a certificate that has expired or soon will. */
export function signingModeBadge(t: TaxpayerView, now: Date): SafeHtml {
  if (!t.certificateSource || !t.certificateNotAfter) {
    return html`<span class="badge badge--collaborator">Social collaborator: the platform signs</span>`;
  }
  const days = Math.floor((t.certificateNotAfter.getTime() - now.getTime()) / DAY_MS);
  if (days < 0) return html`<span class="badge badge--error">Own certificate, expired on ${formatDate(t.certificateNotAfter)}</span>`;
  if (days < EXPIRY_WARNING_DAYS) return html`<span class="badge badge--warn">Own certificate, expires in ${days} day${days === 1 ? '' : 's'}</span>`;
  return html`<span class="badge badge--accepted">Own certificate until ${formatDate(t.certificateNotAfter)}</span>`;
}
