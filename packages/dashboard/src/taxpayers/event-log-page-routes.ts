import { Router, type Response } from 'express';
import type { ApiProblems, ApiServices, ApiViews } from '../dashboard-api';
import type { RenderPage } from '../http/page-renderer';
import { signedInSession } from '../session/session-cookie';
import { eventLogPage } from './event-log-page';

/** Events shown at once, newest first: the API walks further. */
const SHOWN = 200;

interface EventLogRouteDeps {
  eventLog: ApiServices['eventLog'];
  taxpayers: ApiServices['taxpayers'];
  render: RenderPage;
  problems: ApiProblems;
  views: ApiViews;
}

const account = (res: Response) => signedInSession(res).accountId;

/** The taxpayer's event log, and each event's signed XML as generated. */
export function eventLogPageRoutes(deps: EventLogRouteDeps): Router {
  const router = Router();
  const taxpayerId = (id: string) => {
    if (!deps.views.isUuid(id)) throw deps.problems.create('taxpayer_not_found', 'No taxpayer with this id in your account.');
    return id;
  };

  router.get('/app/taxpayers/:id/events', async (req, res) => {
    const id = taxpayerId(req.params.id);
    const taxpayer = await deps.taxpayers.get(account(res), id);
    const events = await deps.eventLog.list(account(res), id, { order: 'desc', limit: SHOWN });
    deps.render(req, res, eventLogPage({ taxpayer, events }));
  });

  router.get('/app/taxpayers/:id/events/:eventId/xml', async (req, res) => {
    const e = await deps.eventLog.get(account(res), taxpayerId(req.params.id), req.params.eventId);
    res.type('application/xml').attachment(`evento-${e.seq}-${e.type}-${e.id}.xml`).send(e.xml);
  });

  return router;
}
