import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Router } from 'express';
import type { Queues } from '@vf/queue';

export const QUEUE_BOARD_PATH = '/admin/queues';

/** Bull Board for both queues; mount it behind operator authentication only. */
export function queueBoard(queues: Queues): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: [new BullMQAdapter(queues.submission), new BullMQAdapter(queues.maintenance)],
    serverAdapter,
  });
  return serverAdapter.getRouter() as Router;
}
