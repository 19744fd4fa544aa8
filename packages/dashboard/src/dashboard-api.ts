import type { Writable } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import type {
  AccountOverview,
  AccountSettings,
  CertificateWarning,
  ChainRecord,
  ChainVerification,
  ChainView,
  Credentials,
  CsvColumn,
  FieldIssue,
  IntegrityCheckBody,
  IntegrityCheckReport,
  PeriodExportArchive,
  PeriodExportBody,
  QrFormat,
  QrImage,
  RecipientCheck,
  RemissionBody,
  SignInResult,
  StartedSession,
  TaxIdAnswer,
  TaxIdCheckInput,
} from '@vf/contract';
import type {
  AccountWithPlan,
  InvoiceDetail,
  InvoiceLineRow,
  InvoiceLink,
  InvoiceListRow,
  InvoiceReferenceJson,
  InvoiceSort,
  InvoiceStatusRow,
  RemissionView,
  StoredEvent,
  SubmissionRow,
  SystemRow,
  TaxIdListRow,
  TaxpayerView,
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebSession,
} from '@vf/db';
// The API mounts the dashboard behind its request logger: every request carries its `log` and `id` (typed by pino-http's declarations).
import type {} from 'pino-http';

// What the dashboard needs from the API, declared here and handed over by the API when it mounts the dashboard
// (createDashboard). The dashboard imports nothing of the API: its pages reach data only through these services,
// check forms with the API's own request schemas and speak of refusals in the API's one error type, so a rule
// changed in the API is changed for the pages too. What the services take and answer is written once, in @vf/contract,
// which the API's services and schemas declare themselves with; the type check at the mount says when one no longer fits.

/** The API's single error type (RFC 9457 problem, stable `code`), as the dashboard reads it. */
export interface Problem extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly options: { errors?: FieldIssue[]; headers?: Record<string, string>; extensions?: Record<string, unknown> };
}

/** The problem codes the dashboard raises itself (its own path checks and form limits). */
export type PageProblemCode =
  'invoice_not_found' | 'not_found' | 'system_not_found' | 'taxpayer_not_found' | 'too_many_fields' | 'unsupported_content_encoding';

export interface ApiProblems {
  /** The error as one of the API's problems; undefined when it is something else. */
  of(err: unknown): Problem | undefined;
  /** Client mistakes and unavailable dependencies as problems, whatever raised them; undefined for a fault of ours. */
  known(err: unknown): Problem | undefined;
  create(code: PageProblemCode, detail: string): Problem;
  validation(issues: FieldIssue[]): Problem;
  /** An answer whose first bytes are out cannot become an error page: it is logged and ended. */
  cutShort(req: Request, res: Response, err: unknown): void;
  /** The path of a form field holding a control character, if any, and the problem that refuses it. */
  controlCharacterField(body: unknown): string | undefined;
  invalidCharacters(field: string): Problem;
  /** Query strings with control characters are refused as the API refuses them. */
  rejectControlCharactersInQuery: RequestHandler;
}

/** The invoice filters the API's list schema gives back (taken as they are, only the order is set by the pages). */
export interface InvoiceFilters {
  sort: InvoiceSort;
}

/** The API's request schemas: each parse throws the API's 422 problem with every field issue. */
export interface ApiRequests {
  invoiceList(input: unknown): InvoiceFilters;
  credentials(input: unknown): Credentials;
  register(input: unknown): object;
  systemCreate(input: unknown): object;
  systemUpdate(input: unknown): object;
  taxpayerCreate(input: unknown): object;
  taxpayerUpdate(input: unknown): object;
  webhookCreate(input: unknown): object;
  /** A CSV of tax IDs (header `tax_id`, `name`) as the list request it stands for, checked as the API checks it. */
  taxIdListCsv(text: string): object;
  /** NO VERI*FACTU: an on-demand check, an export and a remission, as their API routes take them. */
  integrityCheck(input: unknown): IntegrityCheckBody;
  periodExport(input: unknown): PeriodExportBody;
  remissionCreate(input: unknown): RemissionBody;
  /** The account's settings as PUT /account/settings takes them. */
  accountSettings(input: unknown): AccountSettings;
}

/** A log the API's services write to (pino's, per request). */
export type RequestLog = Request['log'];

/** The API's services the pages call: only the methods they use. */
export interface ApiServices {
  auth: {
    register(input: object, address: string): Promise<{ account: AccountWithPlan; apiKey: string }>;
    regenerateForAccount(accountId: string): Promise<{ account: AccountWithPlan; apiKey: string }>;
  };
  signIn: {
    signIn(email: string, password: string, ip: string): Promise<SignInResult>;
    startSession(accountId: string): Promise<StartedSession>;
    signOut(token: string): Promise<void>;
  };
  sessions: { resume(token: string): Promise<WebSession | undefined> };
  overview: {
    account(accountId: string): Promise<AccountWithPlan>;
    overview(accountId: string, now: Date): Promise<AccountOverview>;
  };
  invoices: {
    numberedPage(
      accountId: string,
      query: InvoiceFilters,
      page: number,
      pageSize: number,
    ): Promise<{ rows: InvoiceListRow[]; total: number; totalExact: boolean }>;
    get(accountId: string, id: string): Promise<InvoiceDetail>;
    recordXml(accountId: string, id: string, recordId: string): Promise<string>;
    submissions(accountId: string, id: string): Promise<SubmissionRow[]>;
    statuses(accountId: string, ids: string[]): Promise<InvoiceStatusRow[]>;
    neighbours(
      accountId: string,
      record: { id: string; previousInvoiceId: string | null },
    ): Promise<{ previous?: InvoiceLink; next?: InvoiceLink }>;
    correctionLinks(
      accountId: string,
      invoice: { taxpayerId: string; invoiceNumber: string; invoiceDate: string; correctedInvoices: InvoiceReferenceJson[] },
    ): Promise<{ corrects: (InvoiceLink & { invoiceDate: string })[]; correctedBy: InvoiceLink[] }>;
  };
  invoiceExport: {
    writeInvoices(
      columns: CsvColumn<InvoiceListRow>[],
      accountId: string,
      filters: InvoiceFilters,
      out: Writable,
      begin?: () => void,
    ): Promise<void>;
  };
  /** Registration, for the sandbox panel's test invoices (always under a scenario). */
  registration: {
    register(account: AccountWithPlan, body: unknown, log: RequestLog, answer: undefined, scenario: string): Promise<{ id: string }>;
  };
  correction: { correct(account: AccountWithPlan, invoiceId: string, body: unknown, log: RequestLog): Promise<unknown> };
  cancellation: { cancel(account: AccountWithPlan, invoiceId: string, body: unknown, log: RequestLog): Promise<unknown> };
  resend: { resend(accountId: string, id: string, log: RequestLog): Promise<unknown> };
  qr: { image(accountId: string, invoiceId: string, format: QrFormat): Promise<QrImage> };
  taxpayers: {
    list(accountId: string): Promise<TaxpayerView[]>;
    get(accountId: string, id: string): Promise<TaxpayerView>;
    create(accountId: string, input: object): Promise<{ taxpayer: TaxpayerView; warnings: CertificateWarning[] }>;
    update(accountId: string, id: string, input: object): Promise<{ taxpayer: TaxpayerView; warnings: CertificateWarning[] }>;
    remove(accountId: string, id: string): Promise<void>;
  };
  /** A taxpayer's NO VERI*FACTU event log (its current environment's). */
  eventLog: {
    list(accountId: string, taxpayerId: string, query: { order: 'asc' | 'desc'; limit: number; type?: string }): Promise<StoredEvent[]>;
    get(accountId: string, taxpayerId: string, eventId: string): Promise<StoredEvent>;
  };
  integrityChecks: { check(accountId: string, taxpayerId: string, body: IntegrityCheckBody): Promise<IntegrityCheckReport> };
  periodExports: { export(accountId: string, taxpayerId: string, body: PeriodExportBody): Promise<PeriodExportArchive> };
  remissions: {
    start(accountId: string, taxpayerId: string, body: RemissionBody): Promise<{ id: string }>;
    list(accountId: string, taxpayerId: string): Promise<Omit<RemissionView, 'messages'>[]>;
    get(accountId: string, taxpayerId: string, id: string): Promise<RemissionView>;
  };
  chain: { state(accountId: string, nif: string, environment?: 'sandbox' | 'production'): Promise<ChainView> };
  chainVerification: {
    recentLinks(accountId: string, taxpayerId: string): Promise<{ taxpayer: TaxpayerView; links: ChainRecord[] }>;
    verify(
      accountId: string,
      taxpayerId: string,
      range?: { from?: number; to?: number },
    ): Promise<{ taxpayer: TaxpayerView; result: ChainVerification }>;
  };
  systems: {
    list(accountId: string): Promise<SystemRow[]>;
    get(accountId: string, id: string): Promise<SystemRow>;
    create(accountId: string, input: object): Promise<SystemRow>;
    update(accountId: string, id: string, input: object): Promise<SystemRow>;
    remove(accountId: string, id: string): Promise<void>;
  };
  account: {
    updateSettings(account: AccountWithPlan, settings: AccountSettings): Promise<{ account: AccountWithPlan }>;
  };
  taxIdChecks: {
    checkWithinAllowance(accountId: string, input: TaxIdCheckInput): Promise<TaxIdAnswer[]>;
  };
  /** Registration as POST /invoices makes it: `mode` the recipient check (the account's default), null for none. */
  checkedRegistration: {
    register(
      account: AccountWithPlan,
      body: unknown,
      log: RequestLog,
      mode: RecipientCheck | null,
    ): Promise<{ registered: { id: string }; recipientCheck: TaxIdAnswer[] }>;
  };
  taxIdLists: {
    create(accountId: string, input: object): Promise<TaxIdListRow>;
    get(accountId: string, id: string): Promise<TaxIdListRow>;
    writeCsv(accountId: string, id: string, out: Writable, begin: () => void): Promise<void>;
  };
  webhooks: {
    list(accountId: string): Promise<WebhookEndpointRow[]>;
    get(accountId: string, id: string): Promise<WebhookEndpointRow>;
    create(accountId: string, input: object, opts?: { revealLater?: boolean }): Promise<{ endpoint: WebhookEndpointRow; secret: string }>;
    revealSecretOnce(accountId: string, id: string): Promise<string | undefined>;
    remove(accountId: string, id: string): Promise<void>;
    deliveries(accountId: string, id: string, limit: number): Promise<WebhookDeliveryRow[]>;
    sendTest(accountId: string, id: string): Promise<WebhookDeliveryRow>;
  };
}

/** The API's own readings the pages show as the API does. */
export interface ApiViews {
  /** Ids in paths are checked before they reach PostgreSQL. */
  isUuid(value: unknown): value is string;
  /** The client's address, as far as the API's `trust proxy` allows (the sign-in throttle counts by it). */
  clientAddress(req: Request): string;
  sendQrImage(res: Response, image: QrImage): void;
  /** A breakdown line in the API's request field names (the correction form's inputs). */
  breakdownLine(line: InvoiceLineRow): Record<string, string | null>;
  certificateWarnings(taxpayer: TaxpayerView, now: Date): CertificateWarning[];
  /** A certificate expiring within this many days is flagged (the API warns from the same day). */
  certificateExpiryWarningDays: number;
}

export interface DashboardApi {
  clock: () => Date;
  services: ApiServices;
  requests: ApiRequests;
  problems: ApiProblems;
  views: ApiViews;
}
