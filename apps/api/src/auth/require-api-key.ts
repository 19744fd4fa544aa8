import type { Request, RequestHandler, Response } from 'express';
import type { AccountWithPlan } from '@vf/db';
import { ApiError } from '../errors/api-error';
import { digestApiKey, looksLikeApiKey } from './api-key';
import type { AuthService } from './auth-service';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function bearerToken(req: Request): string | undefined {
  return BEARER.exec(req.headers.authorization ?? '')?.[1];
}

export function unauthorized(detail: string, invalidToken: boolean): ApiError {
  const challenge = invalidToken ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"';
  return new ApiError('unauthorized', detail, { headers: { 'WWW-Authenticate': challenge } });
}

/** The answer to a key that names no account (wrong, or regenerated since). */
export function invalidApiKey(): ApiError {
  return unauthorized('The API key is not valid (it may have been regenerated).', true);
}

/**
 * A well-formed API key left for the route's own read to check (`checkedByRoute`). `verify` checks it alone and
 * throws the 401 when it names no account: for a refusal that comes before that read, which must not tell a client
 * without a valid key anything about its request.
 */
export interface UncheckedApiKey {
  keyDigest: string;
  verify(): Promise<void>;
  /** The key's account, checked now; throws the 401 when it names none. */
  account(): Promise<AccountWithPlan>;
}

/**
 * Resolves the bearer key to its account; every resource below is looked up within that account. `checkedByRoute`:
 * requests whose route checks the key itself, in a statement it makes anyway (a lone registration's chain read): a
 * well-formed key is handed on unchecked as `res.locals.apiKey` (see `currentAccountOrKey`).
 */
export function requireApiKey(auth: AuthService, opts: { checkedByRoute?: (req: Request) => boolean } = {}): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req);
    if (!token) return next(unauthorized('Send your API key as "Authorization: Bearer <key>".', false));
    if (opts.checkedByRoute?.(req) && looksLikeApiKey(token)) {
      const key: UncheckedApiKey = {
        keyDigest: digestApiKey(token),
        verify: async () => {
          if (!(await auth.authenticate(token))) throw invalidApiKey();
        },
        account: async () => {
          const account = await auth.authenticate(token);
          if (!account) throw invalidApiKey();
          return account;
        },
      };
      res.locals.apiKey = key;
      return next();
    }
    const account = await auth.authenticate(token);
    if (!account) return next(invalidApiKey());
    res.locals.account = account;
    next();
  };
}

export function currentAccount(res: Response): AccountWithPlan {
  const account = res.locals.account as AccountWithPlan | undefined;
  if (!account) throw new Error('route mounted without requireApiKey');
  return account;
}

/** The account, or for a route that checks the key itself (`checkedByRoute`), the key still to be checked. */
export function currentAccountOrKey(res: Response): AccountWithPlan | UncheckedApiKey {
  const key = res.locals.apiKey as UncheckedApiKey | undefined;
  return key ?? currentAccount(res);
}
