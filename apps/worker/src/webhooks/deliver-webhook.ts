import type { Logger } from 'pino';
import { decryptSecret } from '@vf/certificates';
import type { AppConfig } from '@vf/config';
import { webhookDispatchStore, type Db } from '@vf/db';
import { webhookDeliveriesTotal } from '@vf/metrics';
import type { DestinationPolicy } from '@vf/webhook-destination';
import { sendWebhook } from './send-webhook';
import type { WebhookDeliveryQueue } from './webhook-delivery-queue';

export interface DeliverWebhookDeps {
  db: Db;
  config: Pick<AppConfig, 'masterKey' | 'webhooks'>;
  logger: Logger;
  destinations: DestinationPolicy;
  queue: Pick<WebhookDeliveryQueue, 'enqueue'>;
}

/**
 * One attempt of a delivery: claimed, sent, recorded; a failure queued again at the time the store gives, a settled
 * delivery letting the invoice's next event to the same endpoint go.
 */
export async function deliverWebhook(deps: DeliverWebhookDeps, deliveryId: string): Promise<void> {
  const { db, config, logger, queue } = deps;
  const settings = config.webhooks;
  // Held a little longer than an attempt can take, so no other worker starts the same attempt.
  const claimed = await webhookDispatchStore.claim(db, deliveryId, settings.timeoutMs + 30_000);
  if (!claimed) return;
  const secret = decryptSecret(config.masterKey, claimed.secret).toString('utf8');
  const result = await sendWebhook(
    { id: claimed.id, url: claimed.url, secret, payload: claimed.payload },
    { timeoutMs: settings.timeoutMs, destinations: deps.destinations },
  );
  const next = await webhookDispatchStore.recordAttempt(db, claimed.id, result, settings.retryDelaysMs);
  webhookDeliveriesTotal.inc({ outcome: result.ok ? 'delivered' : next ? 'failed' : 'gave_up' });
  if (next) {
    logger.info(
      { deliveryId, attempt: claimed.attempts + 1, error: result.error, nextAttemptAt: next },
      'webhook delivery failed; retrying later',
    );
    await queue.enqueue(claimed.id, claimed.attempts + 1, next.getTime() - Date.now());
    return;
  }
  if (!result.ok) logger.warn({ deliveryId, attempts: claimed.attempts + 1, error: result.error }, 'webhook delivery given up');
  // Settled: the invoice's next event to this endpoint may go now.
  const following = await webhookDispatchStore.nextInLine(db, claimed.id);
  if (following) await queue.enqueue(following, 0);
}
