import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
// The typing of `req.id` and `req.log` that the dashboard reads too.
import type {} from 'pino-http';

// A client-supplied id is reused only if it is short and plain, so it cannot forge log content.
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const START = Symbol('request start');
const PEER = Symbol('client address');

type Timed = Response & { [START]?: number; [PEER]?: string };

/** The one line each request leaves: what was asked (never its headers: credentials stay out), and what it got. */
function logCompletion(lines: Logger, res: Timed): void {
  const req = res.req as Request;
  const responseTime = Date.now() - (res[START] ?? Date.now());
  // reqId first: the same line, field for field, as a child logger bound to it would write. Built as it is written,
  // without intermediate copies.
  const reqId = req.id;
  const request = {
    id: reqId,
    method: req.method,
    url: req.originalUrl,
    remoteAddress: res[PEER],
    userAgent: req.headers['user-agent'],
  };
  const response = { statusCode: res.statusCode };
  // A 503 is expected while PostgreSQL or Redis is away (the client is told when to retry): a warning, whose cause
  // the error handler's 'dependency unavailable' line of the same request gives.
  if (res.statusCode === 503) {
    lines.warn({ reqId, req: request, res: response, responseTime }, 'request answered service unavailable');
  } else if (res.statusCode >= 500) {
    const err = new Error(`failed with status code ${res.statusCode}`);
    lines.error({ reqId, req: request, res: response, err, responseTime }, 'request errored');
  } else {
    // A client that went away, or an answer cut short (cutShort), is told apart from one sent whole.
    const msg = !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted';
    lines.info({ reqId, req: request, res: response, responseTime }, msg);
  }
}

/** The line's fields are the ones above, none of them a secret's name: the key-name redaction would walk it for nothing. */
const asIs = (object: object) => object;

/**
 * Gives every request an id (X-Request-Id honoured and echoed) and a child logger that stamps it on each line, and
 * logs one line when the answer is done. Written for the request path rather than through pino-http, which built
 * two child loggers and a full copy of the request (headers, query, parameters) for every request to print five
 * of its fields (measured: docs/scaling.md). `close` is emitted once per answer, sent or cut short.
 */
export function requestLogger(logger: Logger): RequestHandler {
  // The request's own line is written without the logger's path list (request and response headers, settings): it
  // holds none of them, and pino's redaction would parse every path of the list again for each line (measured,
  // docs/scaling.md). Nor the redaction by key name (@vf/logger): the line has no field of a secret's name.
  const lines = logger.child({}, { redact: [], formatters: { log: asIs } });
  function onClose(this: Timed): void {
    logCompletion(lines, this);
  }
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && ACCEPTABLE_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    req.log = logger.child({ reqId: id });
    (res as Timed)[START] = Date.now();
    // Read now: once an aborted request's socket is gone, its address is too.
    (res as Timed)[PEER] = req.socket.remoteAddress;
    // `on`, not `once`: a response emits `close` once, and `once` would wrap the listener in two objects per request.
    res.on('close', onClose);
    next();
  };
}
