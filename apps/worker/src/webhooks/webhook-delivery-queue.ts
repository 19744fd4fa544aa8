import { Queue, type ConnectionOptions } from 'bullmq';
import { WEBHOOK_QUEUE } from '@vf/queue';

/** A delivery job's data. */
export interface DeliverJob {
  deliveryId: string;
}

export interface WebhookDeliveryQueue {
  /** One attempt of a delivery, after `delayMs`. */
  enqueue(deliveryId: string, attempt: number, delayMs?: number): Promise<void>;
  /** Each delivery's next attempt, at once. */
  enqueueMany(deliveries: { id: string; attempts: number }[]): Promise<void>;
  close(): Promise<void>;
}

/** Deterministic per attempt: re-adding while the job exists is a no-op, so the sweep may re-add freely. */
function deliverJobId(deliveryId: string, attempt: number): string {
  return `wh-${deliveryId}-${attempt}`;
}

/** The queue of webhook delivery jobs, one job per attempt; `onError` hears its connection's errors. */
export function createWebhookDeliveryQueue(
  connection: ConnectionOptions,
  prefix: string,
  onError: (err: unknown) => void,
): WebhookDeliveryQueue {
  const queue = new Queue(WEBHOOK_QUEUE, {
    connection,
    prefix,
    // Finished jobs go at once: a job id left behind would turn the sweep's re-enqueue of that attempt into a no-op.
    defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
  });
  // Without a listener BullMQ prints each error raw on the console (while Redis is away, one a reconnection).
  queue.on('error', onError);
  return {
    async enqueue(deliveryId, attempt, delayMs = 0) {
      await queue.add('deliver', { deliveryId } satisfies DeliverJob, {
        jobId: deliverJobId(deliveryId, attempt),
        delay: Math.max(0, delayMs),
      });
    },
    async enqueueMany(deliveries) {
      if (deliveries.length === 0) return;
      await queue.addBulk(
        deliveries.map((d) => ({
          name: 'deliver',
          data: { deliveryId: d.id } satisfies DeliverJob,
          opts: { jobId: deliverJobId(d.id, d.attempts) },
        })),
      );
    },
    close: () => queue.close(),
  };
}
