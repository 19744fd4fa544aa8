import type { RequestHandler } from 'express';
import type { Readiness } from '@vf/lifecycle';
import { ApiError } from '../errors/api-error';
import { RETRY_AFTER_SECONDS } from '../errors/dependency-failure';

/**
 * Until the process has found PostgreSQL with the schema this code needs, every request beyond the health checks
 * gets 503 with Retry-After: nothing is served against a database it was not written for.
 */
export function servingOnly(readiness: Readiness): RequestHandler {
  return (_req, _res, next) => {
    if (readiness.phase !== 'starting') return next();
    next(
      new ApiError('service_unavailable', 'The service is starting and waiting for its database. Try again shortly.', {
        headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      }),
    );
  };
}
