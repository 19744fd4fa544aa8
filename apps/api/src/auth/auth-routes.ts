import { Router, type Response } from 'express';
import { clientAddress } from '../http/client-address';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import type { AccountWithKey, AuthService } from './auth-service';
import { credentialsSchema, registerSchema } from './auth-schemas';
import { bearerToken, unauthorized } from './require-api-key';

function renderKey(res: Response, status: number, message: string, { account, apiKey }: AccountWithKey): void {
  res.status(status).json({
    message,
    data: {
      api_key: apiKey,
      api_key_hint: account.apiKeyHint,
      name: account.name,
      email: account.email,
      plan: account.plan.id,
      monthly_quota: account.plan.monthlyQuota,
    },
  });
}

/** Public routes: registration, and key regeneration by current key or by email + password. */
export function authRoutes(auth: AuthService): Router {
  const router = Router();

  router
    .route('/auth/register')
    .post(async (req, res) => {
      const created = await auth.register(parseWith(registerSchema, req.body), clientAddress(req));
      renderKey(res, 201, 'Account created. Store the API key now: it is shown only once.', created);
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/auth/regenerate-key')
    .post(async (req, res) => {
      let regenerated: AccountWithKey;
      if (req.headers.authorization !== undefined) {
        const token = bearerToken(req);
        const account = token ? await auth.authenticate(token) : undefined;
        if (!account) throw unauthorized('The API key is not valid; to replace a lost key, send email and password instead.', true);
        regenerated = await auth.regenerateForAccount(account.id);
      } else {
        regenerated = await auth.regenerateWithCredentials(parseWith(credentialsSchema, req.body), clientAddress(req));
      }
      renderKey(res, 200, 'New API key issued; the previous key no longer works. Store it now: it is shown only once.', regenerated);
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
