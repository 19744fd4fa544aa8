import type { RequestHandler, Router } from 'express';
import type { Queues } from '@vf/queue';
import { loadOnce } from '../shared/load-once';

export const QUEUE_BOARD_PATH = '/admin/queues';

/**
 * Bull Board for both queues; mount it behind operator authentication only. Its code (about a megabyte with its
 * dependencies) loads on the board's first request: most API processes never serve it.
 */
export function queueBoard(queues: Queues): RequestHandler {
  const board = loadOnce(() => buildBoard(queues));
  return (req, res, next) => {
    board().then((router) => router(req, res, next), next);
  };
}

async function buildBoard(queues: Queues): Promise<Router> {
  const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/express'),
  ]);
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: [new BullMQAdapter(queues.submission), new BullMQAdapter(queues.maintenance)],
    serverAdapter,
  });
  return serverAdapter.getRouter() as Router;
}
