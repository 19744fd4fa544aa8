import { Router } from 'express';
import type { Readiness } from '@vf/lifecycle';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { HealthService } from './health-service';
import { healthResponse } from './health-schemas';
import type { RouteDoc } from '../openapi/route-doc';

/** Where healthRoutes is mounted, below /api/v1. */
export const HEALTH_PATH = '/health';

/** No authentication: load balancers and uptime checks call it. Mounted at HEALTH_PATH. */
export function healthRoutes(health: HealthService, readiness: Readiness): Router {
  const router = Router();
  router
    .route('/')
    .get(async (_req, res) => {
      const report = await health.check();
      // A process still waiting for its schema, or shutting down, is not healthy whatever its dependencies say.
      const healthy = report.healthy && readiness.phase === 'serving';
      res
        .status(healthy ? 200 : 503)
        .set('Cache-Control', 'no-store')
        .json({ status: healthy ? 'ok' : 'unavailable', checks: report.checks });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

export const healthRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    operationId: 'getHealth',
    path: HEALTH_PATH,
    tag: 'Operations',
    summary: 'Whether PostgreSQL and Redis answer',
    public: true,
    responses: {
      200: { description: 'Both answer.', json: healthResponse },
      503: {
        description: 'One of them does not, or the process is starting or shutting down (same body, status unavailable).',
        json: healthResponse,
      },
    },
    problems: [],
  },
];
