import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { IServerAdapter } from '@bull-board/api/typings/app';
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
    // @bull-board/express 9.10.1 types itself against its own nested copy of @bull-board/api (9.10.1, we have
    // 9.10.2); the adapter uses nothing from it at run time, so only the declarations differ.
    serverAdapter: serverAdapter as unknown as IServerAdapter,
  });
  return serverAdapter.getRouter() as Router;
}
