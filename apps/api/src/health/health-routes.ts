import { Router } from 'express';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { HealthService } from './health-service';
import { healthResponse } from '../openapi/response-schemas';
import type { RouteDoc } from '../openapi/route-doc';

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

export const healthRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    path: '/health',
    tag: 'Operations',
    summary: 'Whether PostgreSQL and Redis answer',
    public: true,
    responses: {
      200: { description: 'Both answer.', json: healthResponse },
      503: { description: 'One of them does not (same body, status unavailable).', json: healthResponse },
    },
    problems: [],
  },
];
