import { Router } from 'express';
import { METRICS_PATH, type OperatorCredentials } from '@vf/metrics';
import type { AppDeps } from '../app-deps';
import { metricsRoutes } from '../metrics/metrics-routes';
import { basicAuth } from './basic-auth';
import { QUEUE_BOARD_PATH, queueBoard } from './queue-board';

/** The operator's pages: Bull Board and the Prometheus metrics, each behind the operator's Basic credentials. */
export function adminRoutes(deps: AppDeps, credentials: OperatorCredentials): Router {
  const router = Router();
  router.use(QUEUE_BOARD_PATH, basicAuth(credentials, 'queues'), queueBoard(deps.queues));
  router.use(METRICS_PATH, basicAuth(credentials, 'metrics'), metricsRoutes(deps));
  return router;
}
