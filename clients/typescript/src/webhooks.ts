import { Webhook } from 'standardwebhooks';

/** What the service sends to a webhook endpoint (docs/api.md, "What your endpoint receives"). */
export interface WebhookEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * Checks a delivery's Standard Webhooks signature and timestamp (±5 minutes) on the raw body exactly as received, and
 * returns the event; throws when either does not hold. `secret` is the `whsec_…` of the webhook's creation answer.
 */
export function verifyWebhook(secret: string, rawBody: string, headers: Record<string, string | string[] | undefined>): WebhookEvent {
  const flat = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );
  return new Webhook(secret).verify(rawBody, flat) as WebhookEvent;
}
