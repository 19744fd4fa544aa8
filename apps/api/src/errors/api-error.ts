import type { FieldIssue } from '@vf/contract';
import { errorCatalogue, type ErrorCode } from './error-catalogue';

// The field problem is the API's contract with its clients, the dashboard included (@vf/contract).
export type { FieldIssue } from '@vf/contract';

export interface ApiErrorOptions {
  /** Field errors of a 422. */
  errors?: FieldIssue[];
  /** Extra members of the problem body (RFC 9457 extensions), e.g. quota figures. */
  extensions?: Record<string, unknown>;
  headers?: Record<string, string>;
  cause?: unknown;
}

/** The API's single error type: rendered as application/problem+json by the error handler. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly options: ApiErrorOptions = {},
  ) {
    super(detail, { cause: options.cause });
    this.name = 'ApiError';
    this.status = errorCatalogue[code].status;
  }

  static validation(errors: FieldIssue[], detail = 'Some fields are missing or invalid; see errors.'): ApiError {
    return new ApiError('validation_failed', detail, { errors });
  }
}
