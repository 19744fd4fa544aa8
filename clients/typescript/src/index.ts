export { createVerifactuClient, VerifactuClient, type ClientOptions, type WriteOptions } from './client.ts';
export { VerifactuError, type FieldError, type Problem } from './errors.ts';
export type { AuthorityStatus, Invoice, InvoiceListItem, InvoiceListQuery, InvoiceRequest, RegisteredInvoice } from './operation-types.ts';
export type { paths, components, operations } from './generated/openapi.ts';
export { retryAfterMs, type RetryOptions } from './retrying-fetch.ts';
export { isFinal, type WaitOptions } from './wait-for-final-status.ts';
export { verifyWebhook, type WebhookEvent } from './webhooks.ts';
