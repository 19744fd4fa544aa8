import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { ApiError } from '../errors/api-error';
import { problemAnswer, toApiError } from '../errors/error-handler';
import { idempotencyKeyOf } from './idempotency-key';
import { requestFingerprint, type IdempotencyHandle, type IdempotencyService } from './idempotency-service';

const CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Answers not worth keeping: the same request may well succeed later, so the key is let go instead. */
function isTransient(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

export function idempotencyHandle(res: Response): IdempotencyHandle | undefined {
  return res.locals.idempotency as IdempotencyHandle | undefined;
}

/**
 * Every POST/PUT/PATCH of an authenticated account honours an optional Idempotency-Key: mounted once before the
 * routes, so routes added later get it too. It claims the key, replays a stored answer, and refuses a concurrent or
 * mismatched reuse. The answer itself is kept by the write it answers, in that write's transaction
 * (`sealed-answer.ts`); a refusal, which writes nothing, by `idempotentRefusals` before it goes out.
 */
export function idempotency(service: IdempotencyService): RequestHandler {
  // Synchronous for a request without a key (most): an async handler would cost every request a promise and its
  // reactions in the router.
  return (req, res, next) => {
    if (!CHANGING_METHODS.has(req.method)) return next();
    const key = idempotencyKeyOf(req.get('Idempotency-Key'));
    if (key === undefined) return next();
    return claimed(service, key, req, res, next);
  };
}

/** Claims the key of a request that carries one: replays, refuses, or lets the request run with the claim. */
async function claimed(service: IdempotencyService, key: string, req: Request, res: Response, next: NextFunction): Promise<void> {
  const accountId = currentAccount(res).id;
  const path = new URL(req.originalUrl, 'http://localhost').pathname;
  // A request's Sandbox-Scenario is part of what it asks: the same key and body under another scenario is another request.
  const scenario = req.headers['sandbox-scenario'];
  const asked = scenario === undefined ? req.body : [req.body, scenario];
  const { result, handle } = await service.claim(accountId, key, requestFingerprint(req.method, path, asked));

  if (result.kind === 'mismatch') {
    throw new ApiError(
      'idempotency_key_reused',
      'This Idempotency-Key was used for a different request (method, path or body) in the last 24 hours; use a new key.',
    );
  }
  if (result.kind === 'in_progress') {
    throw new ApiError(
      'idempotency_in_progress',
      'A request with this Idempotency-Key is still being processed; retry after the indicated time.',
      {
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      },
    );
  }
  if (result.kind === 'replay') {
    const { status, headers, body } = result.response;
    res.status(status).set(headers).set('Idempotent-Replayed', 'true').end(body);
    return;
  }

  res.locals.idempotency = handle;
  // Once the answer is out, a claim still running kept no answer (a 5xx, 408 or 429): the key is let go so the
  // client may retry with it. A claim whose answer was kept is not running any more and is left alone.
  res.once('finish', () => {
    const status = res.statusCode;
    service.release(handle).then(
      (released) => {
        // An answer worth keeping that nothing kept (a writing route that took no sealed answer): a retry runs it again.
        if (released && !isTransient(status)) req.log.error({ status }, 'idempotency: answer not kept by its write; key released');
      },
      (err: unknown) => req.log.error({ err }, 'idempotency: claim not released'),
    );
  });
  next();
}

/**
 * A refusal (4xx) is the answer of its key too, and it wrote nothing: it is kept in a statement of its own before
 * the error handler sends the same problem. Mounted after the routes, before the error handler.
 */
export function idempotentRefusals(): ErrorRequestHandler {
  return async (err, req, res, next) => {
    const handle = idempotencyHandle(res);
    const refusal = handle && !res.headersSent ? toApiError(err) : undefined;
    if (handle && refusal && !isTransient(refusal.status)) {
      try {
        await handle.keep(problemAnswer(refusal, String(req.id ?? '')));
      } catch (keepErr) {
        // The refusal still goes out; the claim expires and a retry runs the request again.
        req.log.error({ err: keepErr }, 'idempotency: refusal not stored');
      }
    }
    next(err);
  };
}
