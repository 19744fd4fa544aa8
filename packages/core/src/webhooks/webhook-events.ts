import type { AuthorityStatus } from '../status';

/** The events a webhook endpoint can subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'invoice.registered',
  'invoice.status_changed',
  'invoice.accepted',
  'invoice.rejected',
  'invoice.error',
  'invoice.cancelled',
  'tax_id_list.completed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent once every tax ID of a list (POST /tax-ids/lists) has its answer. */
export const TAX_ID_LIST_COMPLETED_EVENT = 'tax_id_list.completed' satisfies WebhookEventType;

/** Sent by POST /webhooks/{id}/test whatever the endpoint subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** One row of a record's status history, with the status before it (none for the record's first). */
export interface RecordStatusChange {
  recordType: string;
  status: AuthorityStatus;
  previousStatus: AuthorityStatus | null;
}

const OUTCOME_EVENTS: Partial<Record<AuthorityStatus, WebhookEventType>> = {
  accepted: 'invoice.accepted',
  accepted_with_warnings: 'invoice.accepted',
  rejected: 'invoice.rejected',
  error: 'invoice.error',
};

/**
 * The events one history row stands for, in the order they are delivered: a record's first row announces it
 * (a registration, a cancellation); a later row with another status is a status change plus its outcome, if any.
 */
export function webhookEventsFor(change: RecordStatusChange): WebhookEventType[] {
  if (change.previousStatus === null) {
    if (change.recordType === 'registration') return ['invoice.registered'];
    if (change.recordType === 'cancellation') return ['invoice.cancelled'];
    return ['invoice.status_changed'];
  }
  if (change.previousStatus === change.status) return [];
  const outcome = OUTCOME_EVENTS[change.status];
  return outcome ? ['invoice.status_changed', outcome] : ['invoice.status_changed'];
}
