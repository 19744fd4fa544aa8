import type { Request, RequestHandler, Response } from 'express';
import type { AccountWithPlan } from '@vf/db';
import { ApiError } from '../errors/api-error';
import type { AuthService } from './auth-service';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function bearerToken(req: Request): string | undefined {
  return BEARER.exec(req.headers.authorization ?? '')?.[1];
}

export function unauthorized(detail: string, invalidToken: boolean): ApiError {
  const challenge = invalidToken ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"';
  return new ApiError('unauthorized', detail, { headers: { 'WWW-Authenticate': challenge } });
}

/** Resolves the bearer key to its account; every resource below is looked up within that account. */
export function requireApiKey(auth: AuthService): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req);
    if (!token) return next(unauthorized('Send your API key as "Authorization: Bearer <key>".', false));
    const account = await auth.authenticate(token);
    if (!account) return next(unauthorized('The API key is not valid (it may have been regenerated).', true));
    res.locals.account = account;
    next();
  };
}

export function currentAccount(res: Response): AccountWithPlan {
  const account = res.locals.account as AccountWithPlan | undefined;
  if (!account) throw new Error('route mounted without requireApiKey');
  return account;
}
