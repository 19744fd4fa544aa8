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
function logCompletion(res: Timed): void {
  const req = res.req as Request;
  const responseTime = Date.now() - (res[START] ?? Date.now());
  const line = {
    req: {
      id: req.id,
      method: req.method,
      url: req.originalUrl,
      remoteAddress: res[PEER],
      userAgent: req.headers['user-agent'],
    },
    res: { statusCode: res.statusCode },
  };
  if (res.statusCode >= 500) {
    req.log.error({ ...line, err: new Error(`failed with status code ${res.statusCode}`), responseTime }, 'request errored');
  } else {
    // A client that went away, or an answer cut short (cutShort), is told apart from one sent whole.
    req.log.info({ ...line, responseTime }, !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted');
  }
}

function onClose(this: Timed): void {
  logCompletion(this);
}

/**
 * Gives every request an id (X-Request-Id honoured and echoed) and a child logger that stamps it on each line, and
 * logs one line when the answer is done. Written for the request path rather than through pino-http, which built
 * two child loggers and a full copy of the request (headers, query, parameters) for every request to print five
 * of its fields (measured: docs/scaling.md). `close` is emitted once per answer, sent or cut short.
 */
export function requestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && ACCEPTABLE_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    req.log = logger.child({ reqId: id });
    (res as Timed)[START] = Date.now();
    // Read now: once an aborted request's socket is gone, its address is too.
    (res as Timed)[PEER] = req.socket.remoteAddress;
    res.once('close', onClose);
    next();
  };
}
