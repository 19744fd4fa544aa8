import { Queue, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { decryptSecret } from '@vf/certificates';
import type { AppConfig } from '@vf/config';
import type { Db } from '@vf/db';
import { idempotencyStore, webhookDispatchStore } from '@vf/db';
import { webhookDeliveriesTotal } from '@vf/metrics';
import { WEBHOOK_QUEUE } from '@vf/queue';
import { parseAllowedHosts } from '@vf/webhook-destination';
import { planDeliveries } from './plan-deliveries';
import type { JobsInHand } from '../runtime/jobs-in-hand';
import { sendWebhook } from './send-webhook';

const RELAY_BATCH = 500;

interface DeliverJob {
  deliveryId: string;
}

/** Deterministic per attempt: re-adding while the job exists is a no-op, so the sweep may re-add freely. */
function deliverJobId(deliveryId: string, attempt: number): string {
  return `wh-${deliveryId}-${attempt}`;
}

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
  // Checked again before every attempt: see sendWebhook.
  const destinations = { allowed: parseAllowedHosts(settings.allowedHosts) };
  const queue = new Queue(WEBHOOK_QUEUE, {
    connection: deps.connection,
    prefix: config.queuePrefix,
    // Finished jobs go at once: a job id left behind would turn the sweep's re-enqueue of that attempt into a no-op.
    defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
  });
  queue.on('error', deps.onQueueError('webhook queue'));
  let worker: Worker | undefined;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> = Promise.resolve();
  let stopped = false;

  async function enqueue(deliveryId: string, attempt: number, delayMs = 0): Promise<void> {
    await queue.add('deliver', { deliveryId } satisfies DeliverJob, {
      jobId: deliverJobId(deliveryId, attempt),
      delay: Math.max(0, delayMs),
    });
  }

  async function enqueueMany(deliveries: { id: string; attempts: number }[]): Promise<void> {
    if (deliveries.length === 0) return;
    await queue.addBulk(
      deliveries.map((d) => ({
        name: 'deliver',
        data: { deliveryId: d.id } satisfies DeliverJob,
        opts: { jobId: deliverJobId(d.id, d.attempts) },
      })),
    );
  }

  async function sweep(): Promise<void> {
    for (;;) {
      const relayed = await webhookDispatchStore.relay(db, planDeliveries, RELAY_BATCH);
      await enqueueMany(relayed.deliveryIds.map((id) => ({ id, attempts: 0 })));
      if (relayed.outboxRows < RELAY_BATCH || stopped) break;
    }
    await enqueueMany(await webhookDispatchStore.due(db));
    await idempotencyStore.purgeExpired(db);
    await webhookDispatchStore.purgeSettled(db, settings.deliveryRetentionDays);
  }

  async function deliver(deliveryId: string): Promise<void> {
    // Held a little longer than an attempt can take, so no other worker starts the same attempt.
    const claimed = await webhookDispatchStore.claim(db, deliveryId, settings.timeoutMs + 30_000);
    if (!claimed) return;
    const secret = decryptSecret(config.masterKey, claimed.secret).toString('utf8');
    const result = await sendWebhook(
      { id: claimed.id, url: claimed.url, secret, payload: claimed.payload },
      { timeoutMs: settings.timeoutMs, destinations },
    );
    const next = await webhookDispatchStore.recordAttempt(db, claimed.id, result, settings.retryDelaysMs);
    webhookDeliveriesTotal.inc({ outcome: result.ok ? 'delivered' : next ? 'failed' : 'gave_up' });
    if (next) {
      logger.info(
        { deliveryId, attempt: claimed.attempts + 1, error: result.error, nextAttemptAt: next },
        'webhook delivery failed; retrying later',
      );
      await enqueue(claimed.id, claimed.attempts + 1, next.getTime() - Date.now());
      return;
    }
    if (!result.ok) logger.warn({ deliveryId, attempts: claimed.attempts + 1, error: result.error }, 'webhook delivery given up');
    // Settled: the invoice's next event to this endpoint may go now.
    const following = await webhookDispatchStore.nextInLine(db, claimed.id);
    if (following) await enqueue(following, 0);
  }

  return {
    async start() {
      worker = new Worker(
        WEBHOOK_QUEUE,
        deps.inHand.track((job: Job<DeliverJob>) => deliver(job.data.deliveryId)),
        {
          connection: deps.connection,
          prefix: config.queuePrefix,
          concurrency: settings.concurrency,
        },
      );
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
