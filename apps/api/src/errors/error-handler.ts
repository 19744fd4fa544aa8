import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { ApiError } from './api-error';
import { isDependencyFailure, serviceUnavailable } from './dependency-failure';
import { errorCatalogue, problemType, type ErrorCode } from './error-catalogue';

/** The RFC 9457 body of an error: what a problem+json answer carries, and a batch item's `problem`. */
export function problemBody(error: ApiError, requestId: string): Record<string, unknown> {
  const { title, status } = errorCatalogue[error.code];
  return {
    type: problemType(error.code),
    title,
    status,
    detail: error.detail,
    code: error.code,
    request_id: requestId,
    ...(error.options.errors ? { errors: error.options.errors } : {}),
    ...error.options.extensions,
  };
}

const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

/** The problem answer as it goes out (and as an Idempotency-Key keeps it for a replay). */
export function problemAnswer(error: ApiError, requestId: string): { status: number; headers: Record<string, string>; body: string } {
  return { status: error.status, headers: { 'content-type': PROBLEM_TYPE }, body: JSON.stringify(problemBody(error, requestId)) };
}

export function sendProblem(res: Response, error: ApiError): void {
  for (const [name, value] of Object.entries(error.options.headers ?? {})) res.setHeader(name, value);
  const { status, body } = problemAnswer(error, String(res.req.id ?? ''));
  res.status(status).type(PROBLEM_TYPE).send(body);
}

// body-parser's errors carry a `type`; each maps to a client error, never a 500.
const BODY_ERRORS: Record<string, [ErrorCode, string]> = {
  'entity.parse.failed': ['malformed_json', 'The body is not valid JSON (objects and arrays only).'],
  'entity.too.large': ['payload_too_large', 'The body exceeds the size limit: 1 MB, or 10 MB for POST /invoices/batch.'],
  'encoding.unsupported': [
    'unsupported_content_encoding',
    'Unsupported Content-Encoding; send the body uncompressed, or as gzip, deflate or br.',
  ],
  'charset.unsupported': ['unsupported_media_type', 'Unsupported charset; send UTF-8 JSON.'],
  // The dashboard's URL-encoded forms (their parser's parameterLimit).
  'parameters.too.many': ['too_many_fields', 'The form has more fields than any page of the dashboard sends.'],
  'request.aborted': ['malformed_json', 'The request body was not received completely.'],
  'request.size.invalid': ['malformed_json', 'The body length does not match Content-Length.'],
};

/** Client mistakes and unavailable dependencies as ApiErrors; undefined for a genuine fault of ours. */
export function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  // zlib refusing a body labelled gzip/deflate (Z_DATA_ERROR…) or br (ERR__ERROR_FORMAT…) that is not.
  const zlibCode = (err as { code?: unknown })?.code;
  if (typeof zlibCode === 'string' && /^(Z_|ERR__ERROR_)/.test(zlibCode)) {
    return new ApiError('malformed_body', 'The body does not decode as its Content-Encoding says.', { cause: err });
  }
  const type = (err as { type?: unknown })?.type;
  if (typeof type === 'string' && BODY_ERRORS[type]) {
    const [code, detail] = BODY_ERRORS[type];
    return new ApiError(code, detail, { cause: err });
  }
  if (isDependencyFailure(err)) return serviceUnavailable(err);
  return undefined;
}

/**
 * A failure after the answer began (a streamed export): logged through the request's redacting logger, never left to
 * Express's default handler, which prints the raw error (a failed query with its parameters) to stderr. The
 * connection is cut so the client sees an incomplete download, not a complete-looking one.
 */
export function cutShort(req: Request, res: Response, err: unknown): void {
  req.log.warn({ err }, 'answer cut short after its first bytes');
  res.destroy();
}

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) return cutShort(req, res, err);
  const known = toApiError(err);
  if (known?.code === 'service_unavailable') req.log.warn({ err }, 'dependency unavailable');
  if (known) return sendProblem(res, known);
  req.log.error({ err }, 'unhandled error');
  sendProblem(res, new ApiError('internal_error', 'Something went wrong on our side; the request id identifies it in our logs.'));
};

export const notFoundHandler: RequestHandler = (req, res) => {
  sendProblem(res, new ApiError('not_found', `No route for ${req.method} ${req.path}.`));
};
