import { Router } from 'express';
import { formatWait } from '../html/format';
import { field, rawField } from '../http/form-body';
import { formErrorsFrom } from '../http/form-errors-from';
import { t } from '../i18n/i18n';
import { PRE_SESSION_CSRF_COOKIE } from '../session/csrf';
import { clearSessionCookie, cookieOptions, SESSION_COOKIE, sessionOf, setSessionCookie } from '../session/session-cookie';
import { signInPage } from './sign-in-page';
import { signUpRoutes, type SignUpRouteDeps } from './sign-up-routes';

const labels = () => ({ email: t('signIn.email'), password: t('signIn.password') });

/** Only our own pages: a `next` pointing elsewhere would make the sign-in page an open redirect. */
function safeNext(value: string): string | undefined {
  return /^\/app(?:[/?#]|$)/.test(value) && !value.includes('\\') ? value : undefined;
}

/** Signing in and out, with signing up (sign-up-routes.ts) mounted alongside: they share what they are handed. */
export function signInRoutes(deps: SignUpRouteDeps): Router {
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

  router.use(signUpRoutes(deps));

  router.post('/logout', async (req, res) => {
    const token: unknown = req.cookies?.[SESSION_COOKIE];
    if (typeof token === 'string') await deps.signIn.signOut(token);
    clearSessionCookie(req, res);
    res.redirect(303, '/login?signed_out=1');
  });

  return router;
}
