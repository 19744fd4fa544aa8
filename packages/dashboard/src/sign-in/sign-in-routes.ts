import { Router } from 'express';
import type { ApiProblems, ApiRequests, ApiServices, ApiViews } from '../dashboard-api';
import { formatWait } from '../html/format';
import { field, rawField } from '../http/form-body';
import { formErrorsFrom } from '../http/form-errors-from';
import type { RenderPage } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { holdNewKey, takeNewKey } from '../one-time/new-key-flash';
import { PRE_SESSION_CSRF_COOKIE } from '../session/csrf';
import { clearSessionCookie, cookieOptions, SESSION_COOKIE, sessionOf, setSessionCookie, signedInSession } from '../session/session-cookie';
import { signInPage } from './sign-in-page';
import { accountCreatedPage, signUpPage } from './sign-up-page';

const labels = () => ({ name: t('signUp.name'), email: t('signIn.email'), password: t('signIn.password') });

/** Only our own pages: a `next` pointing elsewhere would make the sign-in page an open redirect. */
function safeNext(value: string): string | undefined {
  return /^\/app(?:[/?#]|$)/.test(value) && !value.includes('\\') ? value : undefined;
}

export function signInRoutes(deps: {
  auth: ApiServices['auth'];
  signIn: ApiServices['signIn'];
  render: RenderPage;
  accountById: (id: string) => Promise<{ name: string; plan: { name: string; monthlyQuota: number } }>;
  requests: ApiRequests;
  problems: ApiProblems;
  views: ApiViews;
}): Router {
  const { render, requests, problems } = deps;
  const clientAddress = deps.views.clientAddress;
  const router = Router();

  router.get('/', (_req, res) => {
    res.redirect(303, sessionOf(res) ? '/app' : '/login');
  });

  router.get('/login', (req, res) => {
    if (sessionOf(res)) return res.redirect(303, '/app');
    const signedOut = req.query.signed_out === '1';
    render(req, res, signInPage({ next: safeNext(String(req.query.next ?? '')), notice: signedOut ? t('notice.signed_out') : undefined }));
  });

  router.post('/login', async (req, res) => {
    const email = field(req.body, 'email');
    const password = rawField(req.body, 'password');
    const next = safeNext(field(req.body, 'next'));
    const again = (errors: Record<string, string>, status: number) => render(req, res, signInPage({ email, next, errors }), status);

    let credentials;
    try {
      credentials = requests.credentials({ email, password });
    } catch (err) {
      const errors = formErrorsFrom(problems.of(err), labels());
      if (!errors) throw err;
      if (!email) errors.email = t('signIn.enterEmail');
      if (!password) errors.password = t('signIn.enterPassword');
      return again(errors, 422);
    }

    const result = await deps.signIn.signIn(credentials.email, credentials.password, clientAddress(req));
    if (result.outcome === 'blocked') {
      res.setHeader('Retry-After', String(result.retryAfterSeconds));
      return again({ password: t('signIn.blocked', { wait: formatWait(result.retryAfterSeconds) }) }, 429);
    }
    if (result.outcome === 'wrong_credentials') {
      const left = result.attemptsLeft;
      const pause = formatWait(result.pauseSeconds);
      return again({ password: t('signIn.wrongCredentials', { count: left, pause }) }, 401);
    }
    res.clearCookie(PRE_SESSION_CSRF_COOKIE, cookieOptions(req));
    setSessionCookie(req, res, result.session);
    res.redirect(303, next ?? '/app');
  });

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

  router.post('/logout', async (req, res) => {
    const token: unknown = req.cookies?.[SESSION_COOKIE];
    if (typeof token === 'string') await deps.signIn.signOut(token);
    clearSessionCookie(req, res);
    res.redirect(303, '/login?signed_out=1');
  });

  return router;
}
