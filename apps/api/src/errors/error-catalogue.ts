/** Every error the API can answer with: a stable code, its HTTP status and a short title. */
export const errorCatalogue = {
  malformed_json: { status: 400, title: 'Malformed JSON body' },
  malformed_url: { status: 400, title: 'Malformed URL' },
  malformed_body: { status: 400, title: 'Request body cannot be decoded' },
  unauthorized: { status: 401, title: 'Missing or invalid API key' },
  invalid_credentials: { status: 401, title: 'Wrong email or password' },
  not_found: { status: 404, title: 'Not found' },
  taxpayer_not_found: { status: 404, title: 'Taxpayer not found' },
  system_not_found: { status: 404, title: 'Computer system not found' },
  invoice_not_found: { status: 404, title: 'Invoice not found' },
  webhook_not_found: { status: 404, title: 'Webhook endpoint not found' },
  chain_not_found: { status: 404, title: 'No taxpayer with this NIF in your account' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  not_acceptable: { status: 406, title: 'Not acceptable' },
  email_taken: { status: 409, title: 'An account with this email already exists' },
  taxpayer_exists: { status: 409, title: 'A taxpayer with this NIF already exists in your account' },
  taxpayer_has_invoices: { status: 409, title: 'The taxpayer has registered invoices' },
  system_in_use: { status: 409, title: 'The computer system is used by registered invoices' },
  system_single_taxpayer: { status: 409, title: 'The computer system supports one taxpayer, and another one uses it' },
  duplicate_invoice: { status: 409, title: 'Invoice already registered' },
  // NO VERI*FACTU mode.
  system_verifactu_only: { status: 409, title: 'The computer system can only work as VERI*FACTU' },
  signing_certificate_unusable: { status: 409, title: 'No certificate can sign the taxpayer’s records' },
  // Chains and their records.
  taxpayer_claimed: { status: 409, title: 'The NIF belongs to another account in this environment' },
  record_not_found: { status: 404, title: 'Record not found' },
  event_not_found: { status: 404, title: 'Event not found' },
  invoice_awaiting_authority: { status: 409, title: 'A record of this invoice is waiting for the authority' },
  already_cancelled: { status: 409, title: 'The invoice is already cancelled' },
  invoice_in_other_environment: { status: 409, title: "The invoice belongs to the taxpayer's other environment" },
  not_resendable: { status: 409, title: 'Only an invoice in error can be resent' },
  idempotency_in_progress: { status: 409, title: 'A request with this Idempotency-Key is still running' },
  payload_too_large: { status: 413, title: 'Request body too large' },
  nesting_too_deep: { status: 413, title: 'Request body nested too deeply' },
  too_many_keys: { status: 413, title: 'Too many keys in one object of the body' },
  too_many_items: { status: 413, title: 'Too many items in one array of the body' },
  too_many_fields: { status: 413, title: 'Too many form fields' },
  unsupported_media_type: { status: 415, title: 'Request body must be JSON' },
  unsupported_content_encoding: { status: 415, title: 'Unsupported content encoding' },
  validation_failed: { status: 422, title: 'The request is not valid' },
  idempotency_key_invalid: { status: 422, title: 'Invalid Idempotency-Key header' },
  idempotency_key_reused: { status: 422, title: 'Idempotency-Key already used for another request' },
  invalid_characters: { status: 422, title: 'Control characters are not allowed' },
  certificate_path_not_allowed: { status: 422, title: 'Certificate path not allowed' },
  certificate_unreadable: { status: 422, title: 'Certificate cannot be read' },
  certificate_password_invalid: { status: 422, title: 'Wrong certificate password' },
  certificate_without_key: { status: 422, title: 'Certificate file holds no private key' },
  certificate_expired: { status: 422, title: 'Certificate expired' },
  recipient_not_in_census: { status: 422, title: 'A recipient is not identified in the census' },
  quota_exceeded: { status: 429, title: 'Monthly registration quota exceeded' },
  too_many_attempts: { status: 429, title: 'Too many attempts' },
  internal_error: { status: 500, title: 'Internal server error' },
  service_unavailable: { status: 503, title: 'Service temporarily unavailable' },
  census_unavailable: { status: 503, title: 'The census cannot be asked' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** RFC 9457 `type`: a stable URN per code (there is no public error page to dereference). */
export function problemType(code: ErrorCode): string {
  return `urn:vf:problem:${code}`;
}
