import type { Request, RequestHandler, Response } from 'express';
import { httpRequestDuration } from '@vf/metrics';

/** Requests that matched no route (not-found answers, static assets): one label value, never the raw path. */
export const UNMATCHED_ROUTE = 'unmatched';

const ROUTE = Symbol('route');
const PATTERN = Symbol('route pattern');

const START = Symbol('request start');

type Routed = Request & { [ROUTE]?: { path?: unknown }; [PATTERN]?: string };
type Timed = Response & { [START]: bigint };

function join(base: string, path: string): string {
  const joined = `${base}${path === '/' && base ? '' : path}`;
  return joined || '/';
}

/** The app's request prototypes that already take the pattern down when the router assigns `req.route`. */
const capturing = new WeakSet<object>();

/**
 * `req.route` as an accessor of the app's request prototype (once per app), not of each request: defined on every
 * request object, it cost about 7 µs of CPU per request (measured, docs/scaling.md). It stores the route as a plain
 * property would, and its full pattern beside it.
 */
function captureRoutePatterns(proto: object): void {
  Object.defineProperty(proto, 'route', {
    configurable: true,
    enumerable: true,
    get(this: Routed) {
      return this[ROUTE];
    },
    set(this: Routed, value: { path?: unknown } | undefined) {
      this[ROUTE] = value;
      if (value && value.path !== undefined) this[PATTERN] = join(this.baseUrl, String(value.path));
    },
  });
  capturing.add(proto);
}

/**
 * Times every request under the Express route pattern that handled it (`/api/v1/invoices/:id`). The pattern is taken
 * when the router assigns `req.route`, because by the time the answer goes out after an error, the router has already
 * restored `req.baseUrl` to the app's, and the full pattern could no longer be told. Mount it first.
 */
export function requestMetrics(): RequestHandler {
  return (req, res, next) => {
    const proto = Object.getPrototypeOf(req) as object;
    if (!capturing.has(proto)) captureRoutePatterns(proto);
    (res as Timed)[START] = process.hrtime.bigint();
    // A response emits `close` once: `on` spares the wrapper `once` would build for every request.
    res.on('close', observeDuration);
    next();
  };
}

/** One listener for every answer, its start kept on the response: no timer closures built per request. */
function observeDuration(this: Timed): void {
  const req = this.req as Routed;
  const seconds = Number(process.hrtime.bigint() - this[START]) / 1e9;
  httpRequestDuration.observe(
    { method: req.method, route: req[PATTERN] ?? UNMATCHED_ROUTE, status_code: String(this.statusCode) },
    seconds,
  );
}
