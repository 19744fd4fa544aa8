import { Router } from 'express';
import { LIVE_PATH, probeAnswer, READY_PATH, type Readiness } from '@vf/lifecycle';
import { methodNotAllowed } from '../http/method-not-allowed';

/**
 * `GET /health/live` and `GET /health/ready` for orchestrators and load balancers (no authentication): mounted before
 * the request log and metrics, so probes every few seconds neither fill the log nor skew request figures. Liveness
 * is 200 as long as the process answers, while it waits for PostgreSQL too; readiness needs PostgreSQL with the
 * current schema, and reports Redis without depending on it (registrations do not need it).
 *
 * Each probe's router, to be mounted at its path: every other request passes the probes by on a test of its path,
 * without entering a router (which costs every request a dozen objects).
 */
export function probeRoutes(readiness: Readiness): [path: string, router: Router][] {
  return ([LIVE_PATH, READY_PATH] as const).map((path) => {
    const router = Router();
    router
      .route('/')
      .get(async (_req, res) => {
        const answer = await probeAnswer(readiness, path);
        res.status(answer.status).set('Cache-Control', 'no-store').json(answer.body);
      })
      .all(methodNotAllowed(['GET']));
    return [path, router];
  });
}
