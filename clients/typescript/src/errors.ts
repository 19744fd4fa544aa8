import type { components } from './generated/openapi.ts';

/** An RFC 9457 problem as the service answers it (`application/problem+json`). */
export type Problem = components['schemas']['Problem'] & Record<string, unknown>;
export type FieldError = NonNullable<Problem['errors']>[number];

/** A refusal of the service: branch on `code`, which is stable; `errors` lists a 422's field errors. */
export class VerifactuError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly errors: FieldError[];
  readonly requestId: string | undefined;

  constructor(
    readonly problem: Problem,
    readonly response?: Response,
  ) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = 'VerifactuError';
    this.status = problem.status;
    this.code = problem.code;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
    this.requestId = problem.request_id;
  }
}

/** The problem of a failed answer; an answer that is not a problem (a proxy's page) gets the code `http_<status>`. */
export function errorFromResponse(response: Response, body: unknown): VerifactuError {
  const problem =
    typeof body === 'object' && body !== null && typeof (body as Problem).code === 'string'
      ? (body as Problem)
      : ({
          type: 'about:blank',
          title: response.statusText,
          status: response.status,
          detail: typeof body === 'string' ? body.slice(0, 500) : response.statusText,
          code: `http_${response.status}`,
          request_id: response.headers.get('x-request-id') ?? '',
        } as Problem);
  return new VerifactuError(problem, response);
}
