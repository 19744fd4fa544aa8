import { Router } from 'express';
import { Registry } from 'prom-client';
import { apiRegistry, enableDefaultMetrics } from '@vf/metrics';
import { createBacklogMetrics, type BacklogMetricsDeps } from './backlog-metrics';

/** `GET /metrics`: this process's own measurements plus the system's backlog read now. Mount behind operator auth. */
export function metricsRoutes(deps: BacklogMetricsDeps): Router {
  enableDefaultMetrics(apiRegistry);
  const backlog = createBacklogMetrics(deps);
  const router = Router();
  router.get('/', async (_req, res) => {
    await backlog.refresh();
    const registry = Registry.merge([apiRegistry, backlog.registry]);
    res.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}
