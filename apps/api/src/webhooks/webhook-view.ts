import type { WebhookDeliveryRow, WebhookEndpointRow } from '@vf/db';

export function renderWebhook(endpoint: WebhookEndpointRow) {
  return { id: endpoint.id, url: endpoint.url, events: endpoint.events, created_at: endpoint.createdAt.toISOString() };
}

export function renderDelivery(d: WebhookDeliveryRow) {
  return {
    id: d.id,
    event_type: d.eventType,
    invoice_id: d.invoiceId,
    status: d.status,
    attempts: d.attempts,
    last_response_code: d.lastResponseCode,
    last_error: d.lastError,
    next_attempt_at: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    delivered_at: d.deliveredAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
  };
}
