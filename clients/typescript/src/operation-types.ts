import type { operations } from './generated/openapi.ts';

/** The JSON body an operation takes. */
export type RequestBody<K extends keyof operations> = operations[K] extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : never;

/** The JSON an operation answers with a given success status. */
export type ResponseBody<K extends keyof operations, S extends number> =
  operations[K]['responses'] extends Record<S, { content: { 'application/json': infer B } }> ? B : never;

/** An operation's query parameters. */
export type Query<K extends keyof operations> = operations[K]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;

export type InvoiceRequest = RequestBody<'registerInvoice'>;
export type Invoice = ResponseBody<'getInvoice', 200>['data'];
export type RegisteredInvoice = ResponseBody<'registerInvoice', 201>['data'];
export type InvoiceListItem = ResponseBody<'listInvoices', 200>['data'][number];
export type InvoiceListQuery = Query<'listInvoices'>;
export type AuthorityStatus = Invoice['authority_status'];
