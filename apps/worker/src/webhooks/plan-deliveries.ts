import { webhookEventsFor } from '@vf/core';
import type { OutboxChange, OutboxEndpoint, PlannedDelivery } from '@vf/db';

/** The Standard Webhooks envelope: type, timestamp, data. */
export function eventPayload(type: string, at: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/** Every (change, event, subscribed endpoint), in the changes' order. */
export function planDeliveries(changes: OutboxChange[], endpoints: OutboxEndpoint[]): PlannedDelivery[] {
  const planned: PlannedDelivery[] = [];
  for (const change of changes) {
    if (!change.accountId || !change.invoiceId) continue;
    const types = webhookEventsFor({ recordType: change.recordType, status: change.status, previousStatus: change.previousStatus });
    for (const type of types) {
      const payload = eventPayload(type, change.at, {
        invoice_id: change.invoiceId,
        record_id: change.recordId,
        taxpayer_id: change.taxpayerId,
        issuer_nif: change.issuerNif,
        invoice_number: change.invoiceNumber,
        invoice_date: change.invoiceDate,
        record_type: change.recordType,
        authority_status: change.status,
        previous_status: change.previousStatus,
        authority_code: change.code,
        message: change.message,
      });
      for (const endpoint of endpoints) {
        if (endpoint.accountId === change.accountId && endpoint.events.includes(type)) {
          planned.push({ endpointId: endpoint.id, invoiceId: change.invoiceId, eventType: type, payload });
        }
      }
    }
  }
  return planned;
}
