import createClient, { type Client } from 'openapi-fetch';
import { errorFromResponse } from './errors.ts';
import type { paths } from './generated/openapi.ts';
import type {
  Invoice,
  InvoiceListItem,
  InvoiceListQuery,
  InvoiceRequest,
  Query,
  RegisteredInvoice,
  ResponseBody,
} from './operation-types.ts';
import { retryingFetch, type RetryOptions } from './retrying-fetch.ts';
import { waitForFinalStatus, type WaitOptions } from './wait-for-final-status.ts';

export interface ClientOptions {
  /** The service's address, e.g. `https://verifactu.example.com` (`/api/v1` is added unless given). */
  baseUrl: string;
  /** The account's API key (`vfk_…`). */
  apiKey?: string;
  /** Another fetch (tests, proxies); the runtime's own by default. */
  fetch?: typeof fetch;
  retry?: RetryOptions;
}

interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** A write's options: a retry-safe key, and for a sandbox taxpayer the scenario the simulator answers it under. */
export interface WriteOptions {
  idempotencyKey?: string;
  /** `Sandbox-Scenario`: one of `sandboxScenarios()` (`rejected:1100`, `authority_down:5`…); sandbox taxpayers only. */
  sandboxScenario?: string;
}

function writeHeaders(options: WriteOptions): Record<string, string> {
  return {
    ...(options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {}),
    ...(options.sandboxScenario ? { 'Sandbox-Scenario': options.sandboxScenario } : {}),
  };
}

/** The answer's body, or the problem thrown as a VerifactuError. */
function unwrap<T>({ data, error, response }: Outcome<T>): T {
  if (!response.ok) throw errorFromResponse(response, error);
  return data as T;
}

/** The VERI*FACTU registration API: typed calls, retries with one Idempotency-Key, problems as VerifactuError. */
export class VerifactuClient {
  /** Every operation of the OpenAPI document, typed (openapi-fetch): for what the methods below do not cover. */
  readonly api: Client<paths>;

  constructor(options: ClientOptions) {
    const base = options.baseUrl.replace(/\/+$/, '');
    this.api = createClient<paths>({
      baseUrl: base.endsWith('/api/v1') ? base : `${base}/api/v1`,
      fetch: retryingFetch(options.fetch ?? ((input, init) => globalThis.fetch(input, init)), options.retry),
      headers: options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {},
    });
  }

  async health(): Promise<ResponseBody<'getHealth', 200>> {
    return unwrap(await this.api.GET('/health'));
  }

  async account(): Promise<ResponseBody<'getAccount', 200>['data']> {
    return unwrap(await this.api.GET('/account')).data;
  }

  async registerInvoice(body: InvoiceRequest, options: WriteOptions = {}): Promise<RegisteredInvoice> {
    return unwrap(await this.api.POST('/invoices', { body, headers: writeHeaders(options) })).data;
  }

  /** Up to 1,000 invoices in one call; each result says 201 with `data` or its own `problem`. */
  async registerInvoices(invoices: InvoiceRequest[]): Promise<ResponseBody<'registerInvoiceBatch', 201>['results']> {
    return unwrap(await this.api.POST('/invoices/batch', { body: invoices })).results;
  }

  async getInvoice(id: string): Promise<Invoice> {
    return unwrap(await this.api.GET('/invoices/{id}', { params: { path: { id } } })).data;
  }

  /** A subsanación: the full corrected invoice. */
  async correctInvoice(id: string, body: InvoiceRequest, options: WriteOptions = {}): Promise<ResponseBody<'correctInvoice', 201>['data']> {
    return unwrap(await this.api.PUT('/invoices/{id}', { params: { path: { id } }, body, headers: writeHeaders(options) })).data;
  }

  /** An anulación. */
  async cancelInvoice(id: string, reason?: string, options: WriteOptions = {}): Promise<ResponseBody<'cancelInvoice', 201>['data']> {
    const body = reason ? { reason } : {};
    return unwrap(await this.api.POST('/invoices/{id}/cancel', { params: { path: { id } }, body, headers: writeHeaders(options) })).data;
  }

  /** The sandbox scenarios: what each makes the simulated authority answer, and the status and webhooks to expect. */
  async sandboxScenarios(): Promise<ResponseBody<'listSandboxScenarios', 200>['data']> {
    return unwrap(await this.api.GET('/sandbox/scenarios')).data;
  }

  /** One page of the list; `next_cursor` continues it. */
  async listInvoices(query: InvoiceListQuery = {}): Promise<ResponseBody<'listInvoices', 200>> {
    return unwrap(await this.api.GET('/invoices', { params: { query } }));
  }

  /** Every invoice matching the filters, page after page. */
  async *invoices(query: Omit<InvoiceListQuery, 'cursor'> = {}): AsyncGenerator<InvoiceListItem> {
    let cursor: string | undefined;
    do {
      const page = await this.listInvoices({ ...query, ...(cursor ? { cursor } : {}) });
      yield* page.data;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** The CSV export (UTF-8 with a BOM, `;` between fields) of every invoice matching the filters. */
  async exportInvoicesCsv(query: Omit<Query<'exportInvoices'>, 'format'> = {}): Promise<string> {
    const result = await this.api.GET('/invoices/export', { params: { query: { ...query, format: 'csv' } }, parseAs: 'text' });
    return unwrap(result) as string;
  }

  async getChain(nif: string, query: Query<'getChain'> = {}): Promise<ResponseBody<'getChain', 200>['data']> {
    return unwrap(await this.api.GET('/chain/{nif}', { params: { path: { nif }, query } })).data;
  }

  async verifyChain(nif: string, query: Query<'verifyChain'> = {}): Promise<ResponseBody<'verifyChain', 200>['data']> {
    return unwrap(await this.api.GET('/chain/{nif}/verification', { params: { path: { nif }, query } })).data;
  }

  /**
   * Polls the invoice until the authority has answered its latest record: `accepted`, `accepted_with_warnings`,
   * `rejected`, or an `error` that needs an action (one the service retries by itself is waited out).
   */
  waitForFinalStatus(id: string, options?: WaitOptions): Promise<Invoice> {
    return waitForFinalStatus(() => this.getInvoice(id), options);
  }
}

export const createVerifactuClient = (options: ClientOptions) => new VerifactuClient(options);
