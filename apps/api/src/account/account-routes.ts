import { Router } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { AccountWithUsage, AccountService } from './account-service';
import { sealedAnswerFor, sendAnswer } from '../idempotency/sealed-answer';
import { accountResponse, accountSettingsSchema } from './account-schemas';
import { parseWith } from '../http/parse-with';
import type { RouteDoc } from '../openapi/route-doc';

export function accountRoutes(accounts: AccountService): Router {
  const router = Router();
  router
    .route('/account')
    .get(async (_req, res) => {
      res.json({ data: accountView(await accounts.overview(currentAccount(res))) });
    })
    .all(methodNotAllowed(['GET']));
  router
    .route('/account/settings')
    .put(async (req, res) => {
      const settings = parseWith(accountSettingsSchema, req.body);
      const answer = (overview: AccountWithUsage) => ({ status: 200, body: { data: accountView(overview) } });
      const updated = await accounts.updateSettings(currentAccount(res), settings, sealedAnswerFor(res, answer));
      sendAnswer(res, answer, updated);
    })
    .all(methodNotAllowed(['PUT']));
  return router;
}

function accountView({ account, usage }: AccountWithUsage) {
  return {
    id: account.id,
    name: account.name,
    email: account.email,
    plan: account.plan.id,
    monthly_quota: account.plan.monthlyQuota,
    usage: { period: usage.period, used: usage.used, remaining: usage.remaining, resets_at: usage.resetsAt.toISOString() },
    api_key_hint: account.apiKeyHint,
    api_key_created_at: account.apiKeyCreatedAt.toISOString(),
    created_at: account.createdAt.toISOString(),
    recipient_check: account.recipientCheck,
  };
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
  {
    method: 'put',
    operationId: 'updateAccountSettings',
    path: '/account/settings',
    tag: 'Account',
    summary: 'Your account’s settings: the default recipient check of registrations',
    description:
      '`recipient_check` (`warn`, `refuse`, or `null` for none) applies to every registration (single and batch) that ' +
      'does not ask for one itself with `?recipient_check=`.',
    body: accountSettingsSchema,
    responses: { 200: { description: 'The account, as GET /account answers.', json: accountResponse } },
    problems: ['validation_failed'],
  },
];
