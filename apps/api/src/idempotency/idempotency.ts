import type { RequestHandler, Response } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { ApiError } from '../errors/api-error';
import { idempotencyKeyOf } from './idempotency-key';
import { requestFingerprint, type IdempotencyHandle, type IdempotencyService } from './idempotency-service';

const CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH']);
// Headers a replay must repeat; the rest (request id, dates) belong to the new exchange.
const REPLAYED_HEADERS = ['content-type', 'location'];

/** Answers not worth keeping: the same request may well succeed later, so the key is let go instead. */
function isTransient(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

export function idempotencyHandle(res: Response): IdempotencyHandle | undefined {
  return res.locals.idempotency as IdempotencyHandle | undefined;
}

function recordedHeaders(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

/**
 * Every POST/PUT/PATCH of an authenticated account honours an optional Idempotency-Key: mounted once before the
 * routes, so routes added later get it too. The answer is stored before it is written to the client.
 */
export function idempotency(service: IdempotencyService): RequestHandler {
  return async (req, res, next) => {
    if (!CHANGING_METHODS.has(req.method)) return next();
    const key = idempotencyKeyOf(req.get('Idempotency-Key'));
    if (key === undefined) return next();
    const accountId = currentAccount(res).id;
    const path = new URL(req.originalUrl, 'http://localhost').pathname;
    const { result, handle } = await service.claim(accountId, key, requestFingerprint(req.method, path, req.body));

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
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      const [chunk] = args;
      const body = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
      const status = res.statusCode;
      const settle = isTransient(status)
        ? service.release(handle)
        : service.complete(handle, { status, headers: recordedHeaders(res), body });
      settle.then(
        () => end(...args),
        (err: unknown) => {
          // The answer still goes out; the claim expires and a retry runs the request again.
          req.log.error({ err }, 'idempotency: answer not stored');
          end(...args);
        },
      );
      return res;
    }) as Response['end'];
    next();
  };
}
