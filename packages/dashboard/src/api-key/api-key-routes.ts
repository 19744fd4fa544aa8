import { Router } from 'express';
import type { RenderPage } from '../http/page-renderer';
import { holdNewKey, takeNewKey } from '../one-time/new-key-flash';
import type { ApiServices } from '../dashboard-api';
import { SESSION_COOKIE, signedInSession } from '../session/session-cookie';
import { apiKeyPage } from './api-key-page';

export function apiKeyRoutes(deps: { overview: ApiServices['overview']; auth: ApiServices['auth']; render: RenderPage }): Router {
  const router = Router();

  router.get('/app/api-key', async (req, res) => {
    const account = await deps.overview.account(signedInSession(res).accountId);
    deps.render(req, res, apiKeyPage({ hint: account.apiKeyHint, createdAt: account.apiKeyCreatedAt, newKey: takeNewKey(req, res) }));
  });

  // The same regeneration as POST /api/v1/auth/regenerate-key, then POST-redirect-GET: the next page shows the key
  // once, and reloading it neither shows it again nor issues another.
  router.post('/app/api-key/regenerate', async (req, res) => {
    const { apiKey } = await deps.auth.regenerateForAccount(signedInSession(res).accountId);
    holdNewKey(req, res, String(req.cookies[SESSION_COOKIE]), apiKey);
    res.redirect(303, '/app/api-key');
  });

  return router;
}
