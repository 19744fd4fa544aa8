import { Router } from 'express';
import type { AuthService } from '../../auth/auth-service';
import { credentialsSchema, registerSchema } from '../../auth/auth-schemas';
import type { WebSession } from '@vf/db/src/stores/web-session-store';
import { ApiError } from '../../errors/api-error';
import { clientAddress } from '../../http/client-address';
import { parseWith } from '../../http/parse-with';
import { formatWait } from '../html/format';
import { field, rawField } from '../http/form-body';
import { formErrorsFrom } from '../http/form-errors-from';
import type { RenderPage } from '../http/page-renderer';
import { PRE_SESSION_CSRF_COOKIE } from '../session/csrf';
import { clearSessionCookie, cookieOptions, SESSION_COOKIE, sessionOf, setSessionCookie } from '../session/session-cookie';
import type { SignInService } from './sign-in-service';
import { signInPage } from './sign-in-page';
import { accountCreatedPage, signUpPage } from './sign-up-page';

const LABELS = { name: 'Name', email: 'Email', password: 'Password' };

/** Only our own pages: a `next` pointing elsewhere would make the sign-in page an open redirect. */
function safeNext(value: string): string | undefined {
  return /^\/app(?:[/?#]|$)/.test(value) && !value.includes('\\') ? value : undefined;
}

export function signInRoutes(deps: { auth: AuthService; signIn: SignInService; render: RenderPage }): Router {
  const { render } = deps;
  const router = Router();

  router.get('/', (_req, res) => {
    res.redirect(303, sessionOf(res) ? '/app' : '/login');
  });

  router.get('/login', (req, res) => {
    if (sessionOf(res)) return res.redirect(303, '/app');
    const signedOut = req.query.signed_out === '1';
    render(req, res, signInPage({ next: safeNext(String(req.query.next ?? '')), notice: signedOut ? 'You are signed out.' : undefined }));
  });

  router.post('/login', async (req, res) => {
    const email = field(req.body, 'email');
    const password = rawField(req.body, 'password');
    const next = safeNext(field(req.body, 'next'));
    const again = (errors: Record<string, string>, status: number) => render(req, res, signInPage({ email, next, errors }), status);

    let credentials;
    try {
      credentials = parseWith(credentialsSchema, { email, password });
    } catch (err) {
      const errors = formErrorsFrom(err, LABELS);
      if (!errors) throw err;
      if (!email) errors.email = 'Enter your email address.';
      if (!password) errors.password = 'Enter your password.';
      return again(errors, 422);
    }

    const result = await deps.signIn.signIn(credentials.email, credentials.password, clientAddress(req));
    if (result.outcome === 'blocked') {
      res.setHeader('Retry-After', String(result.retryAfterSeconds));
      return again({ password: `Too many failed sign-in attempts for this email from your network. Wait ${formatWait(result.retryAfterSeconds)} and try again.` }, 429);
    }
    if (result.outcome === 'wrong_credentials') {
      const left = result.attemptsLeft;
      const pause = formatWait(result.pauseSeconds);
      return again({ password: `The email or password is not right. ${left} attempt${left === 1 ? '' : 's'} left before sign-in is paused for ${pause}.` }, 401);
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
      const request = parseWith(registerSchema, input);
      if (password !== rawField(req.body, 'password_confirmation')) {
        return again({ password_confirmation: 'The two passwords do not match. Type the same password in both fields.' }, 422);
      }
      const created = await deps.auth.register(request, clientAddress(req));
      const session = await deps.signIn.startSession(created.account.id);
      res.clearCookie(PRE_SESSION_CSRF_COOKIE, cookieOptions(req));
      setSessionCookie(req, res, session);
      // The cookie only arrives with the next request; this page already renders as the new session.
      res.locals.webSession = {
        id: session.id,
        accountId: created.account.id,
        accountName: created.account.name,
        accountEmail: created.account.email,
        csrfToken: session.csrfToken,
        createdAt: session.createdAt,
        expiresAt: session.expiresAt,
      } satisfies WebSession;
      render(
        req,
        res,
        accountCreatedPage({ name: created.account.name, plan: created.account.plan.name, monthlyQuota: created.account.plan.monthlyQuota, apiKey: created.apiKey }),
        201,
      );
    } catch (err) {
      if (err instanceof ApiError && err.code === 'email_taken') {
        return again({ email: 'An account with this email already exists. Sign in instead, or use another email.' }, 409);
      }
      const errors = formErrorsFrom(err, LABELS);
      if (!errors) throw err;
      return again(errors, 422);
    }
  });

  router.post('/logout', async (req, res) => {
    const token: unknown = req.cookies?.[SESSION_COOKIE];
    if (typeof token === 'string') await deps.signIn.signOut(token);
    clearSessionCookie(req, res);
    res.redirect(303, '/login?signed_out=1');
  });

  return router;
}
