import { Router, type Response } from 'express';
import { clientAddress } from '../http/client-address';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import type { AccountWithKey, AuthService } from './auth-service';
import { apiKeyResponse, credentialsSchema, registerSchema } from './auth-schemas';
import { bearerToken, unauthorized } from './require-api-key';
import type { RouteDoc } from '../openapi/route-doc';

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

/** Where authRoutes is mounted, below /api/v1. */
export const AUTH_PATH = '/auth';

/** Public routes: registration, and key regeneration by current key or by email + password. Mounted at AUTH_PATH. */
export function authRoutes(auth: AuthService): Router {
  const router = Router();

  router
    .route('/register')
    .post(async (req, res) => {
      const created = await auth.register(parseWith(registerSchema, req.body), clientAddress(req));
      renderKey(res, 201, 'Account created. Store the API key now: it is shown only once.', created);
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/regenerate-key')
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

export const authRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    operationId: 'registerAccount',
    path: `${AUTH_PATH}/register`,
    tag: 'Account',
    summary: 'Create an account and get its API key',
    public: true,
    body: registerSchema,
    responses: { 201: { description: 'Account created; the key is shown only here.', json: apiKeyResponse } },
    problems: ['validation_failed', 'email_taken', 'too_many_attempts'],
  },
  {
    method: 'post',
    operationId: 'regenerateApiKey',
    path: `${AUTH_PATH}/regenerate-key`,
    tag: 'Account',
    summary: 'Replace the API key (with the current key, or with email and password)',
    description: 'With an `Authorization` header the key is replaced without a body; without it, send email and password.',
    public: true,
    body: credentialsSchema,
    responses: { 200: { description: 'New key issued; the previous one stops working.', json: apiKeyResponse } },
    problems: ['validation_failed', 'unauthorized', 'invalid_credentials', 'too_many_attempts'],
  },
];
