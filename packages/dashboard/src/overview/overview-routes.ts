import { Router } from 'express';
import type { RenderPage } from '../http/page-renderer';
import { signedInSession } from '../session/session-cookie';
import { overviewPage } from './overview-page';
import type { ApiServices } from '../dashboard-api';

export function overviewRoutes(deps: { overview: ApiServices['overview']; render: RenderPage; clock: () => Date }): Router {
  const router = Router();
  router.get('/app', async (req, res) => {
    const now = deps.clock();
    const o = await deps.overview.overview(signedInSession(res).accountId, now);
    deps.render(
      req,
      res,
      overviewPage({
        accountName: o.account.name,
        planName: o.account.plan.name,
        monthlyQuota: o.account.plan.monthlyQuota,
        usage: o.usage,
        counts: o.counts,
        problems: o.problems,
        pending: o.pending,
        outage: o.outage,
        months: o.months,
        now,
      }),
    );
  });
  return router;
}
