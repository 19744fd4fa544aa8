import { Router } from 'express';
import type { AuthService } from '../../auth/auth-service';
import type { RenderPage } from '../http/page-renderer';
import type { OverviewService } from '../overview/overview-service';
import { signedInSession } from '../session/session-cookie';
import { apiKeyPage } from './api-key-page';

export function apiKeyRoutes(deps: { overview: OverviewService; auth: AuthService; render: RenderPage }): Router {
  const router = Router();

  router.get('/app/api-key', async (req, res) => {
    const account = await deps.overview.account(signedInSession(res).accountId);
    deps.render(req, res, apiKeyPage({ hint: account.apiKeyHint, createdAt: account.apiKeyCreatedAt }));
  });

  // The same regeneration as POST /api/v1/auth/regenerate-key; this answer is the only place the key ever appears.
  router.post('/app/api-key/regenerate', async (req, res) => {
    const { account, apiKey } = await deps.auth.regenerateForAccount(signedInSession(res).accountId);
    deps.render(req, res, apiKeyPage({ hint: account.apiKeyHint, createdAt: account.apiKeyCreatedAt, newKey: apiKey }));
  });

  return router;
}
