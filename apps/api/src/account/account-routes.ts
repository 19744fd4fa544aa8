import { Router } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { AccountService } from './account-service';
import { accountResponse } from './account-schemas';
import type { RouteDoc } from '../openapi/route-doc';

export function accountRoutes(accounts: AccountService): Router {
  const router = Router();
  router
    .route('/account')
    .get(async (_req, res) => {
      const { account, usage } = await accounts.overview(currentAccount(res));
      res.json({
        data: {
          id: account.id,
          name: account.name,
          email: account.email,
          plan: account.plan.id,
          monthly_quota: account.plan.monthlyQuota,
          usage: { period: usage.period, used: usage.used, remaining: usage.remaining, resets_at: usage.resetsAt.toISOString() },
          api_key_hint: account.apiKeyHint,
          api_key_created_at: account.apiKeyCreatedAt.toISOString(),
          created_at: account.createdAt.toISOString(),
        },
      });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

export const accountRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    operationId: 'getAccount',
    path: '/account',
    tag: 'Account',
    summary: 'Your account, plan and this month’s usage',
    responses: { 200: { description: 'The account.', json: accountResponse } },
    problems: [],
  },
];
