import type { RequestHandler } from 'express';
import { ApiError } from '../errors/api-error';

/** The last handler of a route: the path exists, the method does not. */
export function methodNotAllowed(allowed: string[]): RequestHandler {
  const allow = allowed.join(', ');
  return (req, _res, next) =>
    next(new ApiError('method_not_allowed', `${req.method} is not supported here; use ${allow}.`, { headers: { Allow: allow } }));
}
