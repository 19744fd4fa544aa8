import type { RequestHandler } from 'express';
import { httpRequestDuration } from '@vf/metrics';

/** Requests that matched no route (not-found answers, static assets): one label value, never the raw path. */
export const UNMATCHED_ROUTE = 'unmatched';

function join(base: string, path: string): string {
  const joined = `${base}${path === '/' && base ? '' : path}`;
  return joined || '/';
}

/**
 * Times every request under the Express route pattern that handled it (`/api/v1/invoices/:id`). The pattern is taken
 * when the router assigns `req.route`, because by the time the answer goes out after an error, the router has already
 * restored `req.baseUrl` to the app's, and the full pattern could no longer be told. Mount it first.
 */
export function requestMetrics(): RequestHandler {
  return (req, res, next) => {
    const stop = httpRequestDuration.startTimer();
    let route: { path?: unknown } | undefined;
    let pattern: string | undefined;
    Object.defineProperty(req, 'route', {
      configurable: true,
      enumerable: true,
      get: () => route,
      set(value: { path?: unknown } | undefined) {
        route = value;
        if (value && value.path !== undefined) pattern = join(req.baseUrl, String(value.path));
      },
    });
    res.once('close', () => stop({ method: req.method, route: pattern ?? UNMATCHED_ROUTE, status_code: String(res.statusCode) }));
    next();
  };
}
