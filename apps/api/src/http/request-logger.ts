import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { serializeError } from '@vf/logger';

// A client-supplied id is reused only if it is short and plain, so it cannot forge log content.
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives every request an id (X-Request-Id honoured and echoed) and a child logger that stamps it on each line. */
export function requestLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    quietReqLogger: true,
    serializers: {
      // pino-http brings its own error serializer otherwise, which would print a failed query's parameters. It runs
      // first all the same and drops the cause, so ours is given the error it kept (`raw`): a failed query is then
      // logged by its SQLSTATE rather than as an unknown database error.
      err: (err: { raw?: unknown }) => serializeError(err?.raw ?? err),
      // One line per request, without its headers: credentials never reach the redactor, and the line stays cheap.
      req: (req: { id: unknown; method: string; url: string; remoteAddress?: string; headers: Record<string, unknown> }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
        remoteAddress: req.remoteAddress,
        userAgent: req.headers['user-agent'],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    genReqId(req, res) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && ACCEPTABLE_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel(_req, res, err) {
      if (err || res.statusCode >= 500) return 'error';
      return 'info';
    },
  });
}
