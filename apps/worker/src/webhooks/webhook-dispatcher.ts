import { Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { AppConfig } from '@vf/config';
import type { Db } from '@vf/db';
import { idempotencyStore, webhookDispatchStore } from '@vf/db';
import { WEBHOOK_QUEUE } from '@vf/queue';
import { parseAllowedHosts } from '@vf/webhook-destination';
import type { JobsInHand } from '../runtime/jobs-in-hand';
import { deliverWebhook } from './deliver-webhook';
import { planDeliveries } from './plan-deliveries';
import { createWebhookDeliveryQueue, type DeliverJob } from './webhook-delivery-queue';

const RELAY_BATCH = 500;

export interface WebhookDispatcher {
  start(): Promise<void>;
  /** `force` when Redis is away (see QueueWorkers.close); deliveries in hand are waited for by the caller. */
  close(force: boolean): Promise<void>;
}

/**
 * Webhooks in the workers: a periodic sweep turns committed status changes (the outbox) into deliveries and
 * re-enqueues due ones whose job is gone; delivery jobs run on their own queue with their own concurrency.
 */
export function createWebhookDispatcher(deps: {
  db: Db;
  connection: ConnectionOptions;
  config: AppConfig;
  logger: Logger;
  inHand: JobsInHand;
  onQueueError(source: string): (err: unknown) => void;
}): WebhookDispatcher {
  const { db, config, logger } = deps;
  const settings = config.webhooks;
  const queue = createWebhookDeliveryQueue(deps.connection, config.queuePrefix, deps.onQueueError('webhook queue'));
  // Checked again before every attempt: see sendWebhook.
  const delivering = { db, config, logger, queue, destinations: { allowed: parseAllowedHosts(settings.allowedHosts) } };
  let worker: Worker | undefined;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> = Promise.resolve();
  let stopped = false;

  async function sweep(): Promise<void> {
    for (;;) {
      const relayed = await webhookDispatchStore.relay(db, planDeliveries, RELAY_BATCH);
      await queue.enqueueMany(relayed.deliveryIds.map((id) => ({ id, attempts: 0 })));
      if (relayed.outboxRows < RELAY_BATCH || stopped) break;
    }
    await queue.enqueueMany(await webhookDispatchStore.due(db));
    await idempotencyStore.purgeExpired(db);
    await webhookDispatchStore.purgeSettled(db, settings.deliveryRetentionDays);
  }

  return {
    async start() {
      const deliver = deps.inHand.track((job: Job<DeliverJob>) => deliverWebhook(delivering, job.data.deliveryId));
      worker = new Worker(WEBHOOK_QUEUE, deliver, {
        connection: deps.connection,
        prefix: config.queuePrefix,
        concurrency: settings.concurrency,
      });
      worker.on('error', deps.onQueueError('webhook worker'));
      // A timer in every process rather than a job in Redis: nothing a Redis flush removes can stop the sweep.
      const tick = () => {
        sweeping = sweep()
          .catch((err: unknown) => logger.warn({ err }, 'webhook sweep failed; trying again'))
          .finally(() => {
            if (!stopped) timer = setTimeout(tick, settings.sweepIntervalMs);
          });
      };
      tick();
    },
    async close(force) {
      stopped = true;
      clearTimeout(timer);
      await sweeping;
      await worker?.close(force);
      await queue.close();
    },
  };
}
