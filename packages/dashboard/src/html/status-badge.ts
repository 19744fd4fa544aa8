import { AUTHORITY_STATUSES, isFinalStatus as isFinal, type AuthorityStatus } from '@vf/core';
import { t } from '../i18n/i18n';
import { html, type SafeHtml } from './html';

/** A status in words, in the request's language. */
export function statusLabel(status: AuthorityStatus): string {
  return t(`status.${status}`);
}

export const ALL_STATUSES: readonly AuthorityStatus[] = AUTHORITY_STATUSES;

/** The page stops polling a status that will not change without someone acting: final, or `error`. */
export function isFinalStatus(status: AuthorityStatus): boolean {
  return isFinal(status) || status === 'error';
}

/** The badge carries its invoice id so the polling script can update it in place. */
export function statusBadge(status: AuthorityStatus, invoiceId?: string): SafeHtml {
  return html`<span class="badge badge--${status}" data-status="${status}"${invoiceId ? html` data-invoice-id="${invoiceId}"` : ''}>${statusLabel(status)}</span>`;
}

export function environmentBadge(isProduction: boolean): SafeHtml {
  return isProduction
    ? html`<span class="badge badge--production">${t('environment.production')}</span>`
    : html`<span class="badge badge--sandbox">${t('environment.sandbox')}</span>`;
}
