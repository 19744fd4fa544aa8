import { ApiError } from '../errors/api-error';

// Printable ASCII (space to tilde), as the IETF Idempotency-Key draft and the major APIs accept.
export const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

/** The header's value, or undefined without one; a malformed key is a 422 before anything runs. */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(header)) {
    throw new ApiError('idempotency_key_invalid', 'Idempotency-Key must be 1 to 255 printable ASCII characters (a UUID is a good choice).');
  }
  return header;
}
