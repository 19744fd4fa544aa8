import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import type { WebSession } from '@vf/db';
import type { StartedSession } from '@vf/contract';
import type { ApiServices } from '../dashboard-api';

export const SESSION_COOKIE = 'vf_session';

/** HttpOnly so scripts cannot read it, SameSite=Lax so other sites' forms do not carry it, Secure over HTTPS. */
export function cookieOptions(req: Request): CookieOptions {
  // req.secure honours X-Forwarded-Proto only when the app sets `trust proxy` for its TLS terminator.
  return { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' };
}

export function setSessionCookie(req: Request, res: Response, started: StartedSession): void {
  res.cookie(SESSION_COOKIE, started.token, { ...cookieOptions(req), expires: started.expiresAt });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req));
}

/** Resolves the session cookie (if any) for every dashboard request; pages decide whether they need one. */
export function loadSession(sessions: ApiServices['sessions']): RequestHandler {
  return async (req, res, next) => {
    const token: unknown = req.cookies?.[SESSION_COOKIE];
    if (typeof token === 'string' && token.length > 0 && token.length < 200) {
      const session = await sessions.resume(token);
      if (session) res.locals.webSession = session;
      else clearSessionCookie(req, res);
    }
    next();
  };
}

export function sessionOf(res: Response): WebSession | undefined {
  return res.locals.webSession as WebSession | undefined;
}

/** Pages under /app: without a session, GETs go to the sign-in page and come back afterwards. */
export const requireSession: RequestHandler = (req, res, next) => {
  if (sessionOf(res)) return next();
  if (req.method === 'GET' && req.accepts(['html', 'json']) === 'json') {
    res.status(401).json({ error: 'Your session has ended. Sign in again.' });
    return;
  }
  if (req.method === 'GET') {
    res.redirect(303, `/login?next=${encodeURIComponent(req.originalUrl)}`);
    return;
  }
  res.status(401).type('text/plain').send('Your session has ended. Sign in again.');
};

export function signedInSession(res: Response): WebSession {
  const session = sessionOf(res);
  if (!session) throw new Error('route mounted without requireSession');
  return session;
}
