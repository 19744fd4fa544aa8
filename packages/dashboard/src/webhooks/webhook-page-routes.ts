import { Router, type Request, type Response } from 'express';
import type { ApiProblems, ApiRequests, ApiServices, Problem } from '../dashboard-api';
import { field } from '../http/form-body';
import { formErrorsFrom } from '../http/form-errors-from';
import type { RenderPage } from '../http/page-renderer';
import { signedInSession } from '../session/session-cookie';
import { webhookFieldLabels } from './webhook-labels';
import { webhookDetailPage, webhookListPage, type WebhookFormValues } from './webhook-pages';

const RECENT_DELIVERIES = 25;
const EMPTY: WebhookFormValues = { url: '', events: [] };

/** Ticked checkboxes arrive as one string or several. */
function formValues(body: unknown): WebhookFormValues {
  const events = (body as Record<string, unknown> | undefined)?.events;
  return { url: field(body, 'url'), events: (Array.isArray(events) ? events : [events]).filter((e): e is string => typeof e === 'string') };
}

// Through the API's schema and service: same URL rule, same secret handling. Every POST redirects (POST-redirect-GET).
export function webhookPageRoutes(deps: {
  webhooks: ApiServices['webhooks'];
  render: RenderPage;
  requests: ApiRequests;
  problems: ApiProblems;
}): Router {
  const { webhooks, render, requests, problems } = deps;
  const router = Router();
  const account = (res: Response) => signedInSession(res).accountId;
  const id = (req: Request) => String(req.params.id);

  router.get('/app/webhooks', async (req, res) => {
    render(req, res, webhookListPage({ endpoints: await webhooks.list(account(res)), values: EMPTY, notice: req.query.notice }));
  });

  router.post('/app/webhooks', async (req, res) => {
    const values = formValues(req.body);
    try {
      const request = { ...(values.url ? { url: values.url } : {}), ...(values.events.length ? { events: values.events } : {}) };
      // The secret is shown once, by the page this redirects to, so a reload never shows or makes another.
      const { endpoint } = await webhooks.create(account(res), requests.webhookCreate(request), { revealLater: true });
      res.redirect(303, `/app/webhooks/${endpoint.id}?notice=webhook_created`);
    } catch (err) {
      const errors = formErrorsFrom(problems.of(err), webhookFieldLabels());
      if (!errors) throw err;
      render(req, res, webhookListPage({ endpoints: await webhooks.list(account(res)), values, errors }), (err as Problem).status);
    }
  });

  router.get('/app/webhooks/:id', async (req, res) => {
    const endpoint = await webhooks.get(account(res), id(req));
    const [secret, deliveries] = await Promise.all([
      webhooks.revealSecretOnce(account(res), endpoint.id),
      webhooks.deliveries(account(res), endpoint.id, RECENT_DELIVERIES),
    ]);
    render(req, res, webhookDetailPage({ endpoint, secret, deliveries, notice: req.query.notice }));
  });

  router.post('/app/webhooks/:id/test', async (req, res) => {
    await webhooks.sendTest(account(res), id(req));
    res.redirect(303, `/app/webhooks/${id(req)}?notice=webhook_test_sent`);
  });

  router.post('/app/webhooks/:id/delete', async (req, res) => {
    await webhooks.remove(account(res), id(req));
    res.redirect(303, '/app/webhooks?notice=webhook_deleted');
  });

  return router;
}
