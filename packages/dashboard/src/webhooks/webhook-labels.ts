import type { WebhookDeliveryStatus } from '@vf/db';
import { locale, t } from '../i18n/i18n';

/** What an event type means, in the request's language; an unknown type shows as itself. */
export function eventLabel(type: string): string {
  return t(`webhooks.event.${type}`, { defaultValue: type });
}

export function deliveryStatusLabel(status: WebhookDeliveryStatus): string {
  return t(`webhooks.delivery.${status}`);
}

/**
 * Why a delivery attempt failed, in the reader's language. The worker writes it in English (the API returns it as
 * written): a Spanish page says it from its forms ("HTTP 503", "no answer within … ms", a refused destination, any
 * other network error).
 */
export function deliveryFailureText(error: string): string {
  if (locale() === 'en' || /^HTTP \d+$/.test(error)) return error;
  const timeout = /^no answer within (\d+) ms$/.exec(error);
  if (timeout) return t('webhooks.failure.timeout', { ms: timeout[1] });
  if (error.startsWith('destination refused')) return t('webhooks.failure.destination');
  return t('webhooks.failure.network');
}

export function webhookFieldLabels(): { url: string; events: string } {
  return { url: 'URL', events: t('webhooks.events') };
}

const NOTICES = ['webhook_created', 'webhook_test_sent', 'webhook_deleted'];

export function webhookNoticeText(code: unknown): string | undefined {
  const key = String(code ?? '');
  return NOTICES.includes(key) ? t(`webhooks.notice.${key}`) : undefined;
}
