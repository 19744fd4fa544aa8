import type { WebhookDeliveryStatus } from '@vf/db';

// Spanish first, then English: the dashboard's users are Spanish businesses.
export const EVENT_LABELS: Record<string, string> = {
  'invoice.registered': 'Factura registrada / Invoice registered',
  'invoice.status_changed': 'Cambio de estado / Status changed',
  'invoice.accepted': 'Aceptada por la AEAT / Accepted by the AEAT',
  'invoice.rejected': 'Rechazada por la AEAT / Rejected by the AEAT',
  'invoice.error': 'En error / In error',
  'invoice.cancelled': 'Anulada / Cancelled',
  'webhook.test': 'Prueba / Test',
};

export const DELIVERY_STATUS_LABELS: Record<WebhookDeliveryStatus, string> = {
  pending: 'Pendiente / Pending',
  delivered: 'Entregado / Delivered',
  failed: 'Abandonado / Given up',
};

export const WEBHOOK_FIELD_LABELS = { url: 'URL', events: 'Eventos / Events' };

const NOTICES: Record<string, string> = {
  webhook_created: 'Webhook creado. / Webhook created.',
  webhook_test_sent: 'Evento de prueba en cola: aparecerá abajo en unos segundos. / Test event queued: it shows below within seconds.',
  webhook_deleted: 'Webhook eliminado. / Webhook deleted.',
};

export function webhookNoticeText(code: unknown): string | undefined {
  return NOTICES[String(code ?? '')];
}
