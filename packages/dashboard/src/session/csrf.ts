import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { cookieOptions, sessionOf } from './session-cookie';

/** Before sign-in there is no session to hold the token: a random cookie does (double-submit). */
export const PRE_SESSION_CSRF_COOKIE = 'vf_csrf';

function same(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** The token the page's forms must send back: the session's, or the pre-session cookie's (set if missing). */
export function csrfTokenFor(req: Request, res: Response): string {
  const session = sessionOf(res);
  if (session) return session.csrfToken;
  const existing: unknown = req.cookies?.[PRE_SESSION_CSRF_COOKIE];
  if (typeof existing === 'string' && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  res.cookie(PRE_SESSION_CSRF_COOKIE, token, cookieOptions(req));
  // Later calls in the same request must see the token just issued.
  req.cookies = { ...req.cookies, [PRE_SESSION_CSRF_COOKIE]: token };
  return token;
}

/** True when the POST carries the token of its session (or of the pre-session cookie when signed out). */
export function hasValidCsrfToken(req: Request, res: Response): boolean {
  const sent: unknown = (req.body as Record<string, unknown> | undefined)?._csrf;
  if (typeof sent !== 'string' || sent.length === 0) return false;
  const session = sessionOf(res);
  const expected: unknown = session ? session.csrfToken : req.cookies?.[PRE_SESSION_CSRF_COOKIE];
  return typeof expected === 'string' && expected.length > 0 && same(sent, expected);
}

/** Every POST must carry the token; anything else is refused with a plain 403 page. */
export function verifyCsrf(renderRefusal: (req: Request, res: Response) => void): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST' || hasValidCsrfToken(req, res)) return next();
    renderRefusal(req, res);
  };
}
