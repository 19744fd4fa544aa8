import { Router } from 'express';
import type { ApiProblems, ApiRequests, ApiServices, ApiViews } from '../dashboard-api';
import { field, rawField } from '../http/form-body';
import { formErrorsFrom } from '../http/form-errors-from';
import type { RenderPage } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { holdNewKey, takeNewKey } from '../one-time/new-key-flash';
import { PRE_SESSION_CSRF_COOKIE } from '../session/csrf';
import { cookieOptions, sessionOf, setSessionCookie, signedInSession } from '../session/session-cookie';
import { accountCreatedPage, signUpPage } from './sign-up-page';

const labels = () => ({ name: t('signUp.name'), email: t('signIn.email'), password: t('signIn.password') });

export interface SignUpRouteDeps {
  auth: ApiServices['auth'];
  signIn: ApiServices['signIn'];
  render: RenderPage;
  accountById: (id: string) => Promise<{ name: string; plan: { name: string; monthlyQuota: number } }>;
  requests: ApiRequests;
  problems: ApiProblems;
  views: Pick<ApiViews, 'clientAddress'>;
}

/** Signing up: the form, the account created and signed in, and the welcome page that shows its first key once. */
export function signUpRoutes(deps: SignUpRouteDeps): Router {
  const { render, requests, problems } = deps;
  const clientAddress = deps.views.clientAddress;
  const router = Router();

  router.get('/signup', (req, res) => {
    if (sessionOf(res)) return res.redirect(303, '/app');
    render(req, res, signUpPage({}));
  });

  router.post('/signup', async (req, res) => {
    const name = field(req.body, 'name');
    const email = field(req.body, 'email');
    const password = rawField(req.body, 'password');
    const again = (errors: Record<string, string>, status: number) => render(req, res, signUpPage({ name, email, errors }), status);

    // Empty fields are left out, so the API's schema answers "is required" rather than "is not allowed to be empty".
    const input = Object.fromEntries(Object.entries({ name, email, password }).filter(([, v]) => v !== ''));
    try {
      const request = requests.register(input);
      if (password !== rawField(req.body, 'password_confirmation')) {
        return again({ password_confirmation: t('signUp.mismatch') }, 422);
      }
      const created = await deps.auth.register(request, clientAddress(req));
      const session = await deps.signIn.startSession(created.account.id);
      res.clearCookie(PRE_SESSION_CSRF_COOKIE, cookieOptions(req));
      setSessionCookie(req, res, session);
      // POST-redirect-GET: the welcome page shows the first key once; a reload cannot create the account again.
      holdNewKey(req, res, session.token, created.apiKey);
      res.redirect(303, '/app/welcome');
    } catch (err) {
      if (problems.of(err)?.code === 'email_taken') {
        return again({ email: t('signUp.emailTaken') }, 409);
      }
      const errors = formErrorsFrom(problems.of(err), labels());
      if (!errors) throw err;
      return again(errors, 422);
    }
  });

  router.get('/app/welcome', async (req, res) => {
    const apiKey = takeNewKey(req, res);
    // Shown once: a reload (or a later visit) goes on to the overview.
    if (!apiKey) return res.redirect(303, '/app');
    const account = await deps.accountById(signedInSession(res).accountId);
    render(req, res, accountCreatedPage({ name: account.name, plan: account.plan.name, monthlyQuota: account.plan.monthlyQuota, apiKey }));
  });

  return router;
}
