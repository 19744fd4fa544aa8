import { Router } from 'express';
import type { Db } from '@vf/db';
import { accountStore } from '@vf/db/src/stores';
import type { AuthService } from '../../auth/auth-service';
import type { RenderPage } from '../http/page-renderer';
import { signedInSession } from '../session/session-cookie';
import { apiKeyPage } from './api-key-page';

export function apiKeyRoutes(deps: { db: Db; auth: AuthService; render: RenderPage }): Router {
  const router = Router();

  router.get('/app/api-key', async (req, res) => {
    const account = await accountStore.findById(deps.db, signedInSession(res).accountId);
    if (!account) throw new Error('signed-in account vanished');
    deps.render(req, res, apiKeyPage({ hint: account.apiKeyHint, createdAt: account.apiKeyCreatedAt }));
  });

  // The same regeneration as POST /api/v1/auth/regenerate-key; the answer is the only place the key ever appears.
  router.post('/app/api-key/regenerate', async (req, res) => {
    const { account, apiKey } = await deps.auth.regenerateForAccount(signedInSession(res).accountId);
    deps.render(req, res, apiKeyPage({ hint: account.apiKeyHint, createdAt: account.apiKeyCreatedAt, newKey: apiKey }));
  });

  return router;
}
