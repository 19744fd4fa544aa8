import { Router } from 'express';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { HealthService } from './health-service';

/** No authentication: load balancers and uptime checks call it. */
export function healthRoutes(health: HealthService): Router {
  const router = Router();
  router
    .route('/health')
    .get(async (_req, res) => {
      const report = await health.check();
      res
        .status(report.healthy ? 200 : 503)
        .set('Cache-Control', 'no-store')
        .json({ status: report.healthy ? 'ok' : 'unavailable', checks: report.checks });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
