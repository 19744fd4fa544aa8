import { AUTHORITY_STATUSES, isFinalStatus as isFinal, type AuthorityStatus } from '@vf/core';
import { html, type SafeHtml } from './html';

export const STATUS_LABELS: Record<AuthorityStatus, string> = {
  queued: 'Queued',
  sent: 'Sent, awaiting answer',
  accepted: 'Accepted',
  accepted_with_warnings: 'Accepted with warnings',
  rejected: 'Rejected',
  error: 'Error',
};

export const ALL_STATUSES: readonly AuthorityStatus[] = AUTHORITY_STATUSES;

/** The page stops polling a status that will not change without someone acting: final, or `error`. */
export function isFinalStatus(status: AuthorityStatus): boolean {
  return isFinal(status) || status === 'error';
}

/** The badge carries its invoice id so the polling script can update it in place. */
export function statusBadge(status: AuthorityStatus, invoiceId?: string): SafeHtml {
  return html`<span class="badge badge--${status}" data-status="${status}"${invoiceId ? html` data-invoice-id="${invoiceId}"` : ''}>${STATUS_LABELS[status]}</span>`;
}

export function environmentBadge(isProduction: boolean): SafeHtml {
  return isProduction
    ? html`<span class="badge badge--production">Production</span>`
    : html`<span class="badge badge--sandbox">Sandbox</span>`;
}
