import type { Request } from 'express';
import { html, type SafeHtml } from '../html/html';
import { t } from '../i18n/i18n';

// After a redirect the page says what happened; only these fixed texts can appear, never text from the URL.
const NOTICES = [
  'taxpayer_created',
  'taxpayer_saved',
  'taxpayer_deleted',
  'mode_saved',
  'certificate_saved',
  'certificate_removed',
  'system_created',
  'system_saved',
  'system_deleted',
  'correction_queued',
  'reactivation_queued',
  'cancellation_queued',
  'invoice_resent',
  'invoice_not_resendable',
  'cancellation_unconfirmed',
  'cancellation_already',
  'cancellation_awaiting',
  'cancellation_other_environment',
  'cancellation_refused',
  'recipient_check_saved',
  'invoice_registered',
  'remission_started',
] as const;

export type NoticeKey = (typeof NOTICES)[number];

export function noticeFrom(req: Request): SafeHtml {
  const key = String(req.query.notice ?? '');
  return (NOTICES as readonly string[]).includes(key)
    ? html`<div class="notice notice--success" role="status"><p>${t(`notice.${key}`)}</p></div>`
    : html``;
}
