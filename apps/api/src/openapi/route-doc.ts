import type Joi from 'joi';
import type { ErrorCode } from '../errors/error-catalogue';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** A successful answer: JSON described by a joi schema, or another media type described in JSON Schema. */
export interface SuccessDoc {
  description: string;
  json?: Joi.Schema;
  media?: Record<string, { schema: Record<string, unknown> }>;
  headers?: Record<string, string>;
}

/**
 * One operation of /api/v1 as the OpenAPI document shows it, declared next to the route it describes.
 * `query` and `body` are the very joi schemas the route validates with; `problems` are the codes of the
 * error catalogue this route itself can answer (those every route shares are added by the document).
 */
export interface RouteDoc {
  method: HttpMethod;
  /** Stable and unique: generated clients name their method after it (verifactu-client, the Python client). */
  operationId: string;
  /** Express path under /api/v1, e.g. /invoices/:id. */
  path: string;
  summary: string;
  tag: string;
  description?: string;
  /** Callable without an API key. */
  public?: boolean;
  query?: Joi.ObjectSchema;
  /** Optional request headers the route reads besides the shared ones (Idempotency-Key). */
  requestHeaders?: { name: string; description: string; schema: Record<string, unknown> }[];
  body?: Joi.Schema;
  responses: Record<number, SuccessDoc>;
  problems: ErrorCode[];
}
