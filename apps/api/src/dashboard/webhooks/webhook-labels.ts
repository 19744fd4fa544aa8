import type { WebhookDeliveryStatus } from '@vf/db';
import { t } from '../i18n/i18n';

/** What an event type means, in the request's language; an unknown type shows as itself. */
export function eventLabel(type: string): string {
  return t(`webhooks.event.${type}`, { defaultValue: type });
}

export function deliveryStatusLabel(status: WebhookDeliveryStatus): string {
  return t(`webhooks.delivery.${status}`);
}

export function webhookFieldLabels(): { url: string; events: string } {
  return { url: 'URL', events: t('webhooks.events') };
}

const NOTICES = ['webhook_created', 'webhook_test_sent', 'webhook_deleted'];

export function webhookNoticeText(code: unknown): string | undefined {
  const key = String(code ?? '');
  return NOTICES.includes(key) ? t(`webhooks.notice.${key}`) : undefined;
}
