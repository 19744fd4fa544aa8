import type { Logger } from 'pino';
import {
  ChainRefusedError,
  usableBy,
  type AppendOutcome,
  type ChainRefusal,
  type ItemOutcome as ChainItemOutcome,
  type RegisteredInvoice,
  type RegistrationAppender,
  type RegistrationItem,
} from '@vf/chain';
import { checkAgainstIssuer, madridToday, validateInvoiceRequest, type NormalizedInvoice, type ValidationIssue } from '@vf/core';
import { FULL_BATCH, systemStore, taxpayerStore, type AccountWithPlan, type Db, type SealedAnswer, type SystemRow } from '@vf/db';
import { invalidApiKey, type UncheckedApiKey } from '../auth/require-api-key';
import { ApiError, type FieldIssue } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { shapeIssuesBeyond } from '../http/shape-issues-beyond';
import type { JsonAnswer } from '../idempotency/sealed-answer';
import { countRegistrations } from '../metrics/registration-metrics';
import { quotaExceeded } from '../quota/quota-exceeded';
import type { requestedScenario, scenarioChainOf } from '../sandbox/sandbox-scenario-request';
import { invoiceRequestSchema } from './invoice-request-schema';
import type { registerBatch } from './register-batch';

export type { RegisteredInvoice } from '@vf/chain';

/** A registration's result as the client gets it: what was registered, or the problem. */
export type ItemOutcome = { ok: true; registered: RegisteredInvoice } | { ok: false; error: ApiError };

export interface CheckedInvoice extends Omit<RegistrationItem, 'answer'> {
  system: SystemRow;
}

export type InvoiceRegistrationService = ReturnType<typeof createInvoiceRegistrationService>;

/** Most invoices one batch request may carry: one authority message's worth. */
export const MAX_BATCH_ITEMS = FULL_BATCH;

export interface RegistrationServiceDeps {
  db: Db;
  /** The process's one writer of chain records (group commit). */
  writer: RegistrationAppender;
  clock: () => Date;
  // Handed in by the composition root rather than imported: the sandbox's scenarios and the batch both import this
  // file (its problems, its steps), and no module imports one that imports it back.
  requestedScenario: typeof requestedScenario;
  scenarioChainOf: typeof scenarioChainOf;
  registerBatch: typeof registerBatch;
}

export function createInvoiceRegistrationService(deps: RegistrationServiceDeps) {
  const { db, clock, writer: appender, requestedScenario, scenarioChainOf, registerBatch } = deps;

  /** What an invoice must satisfy on its own (validateInvoiceBody). No I/O. */
  function validateBody(body: unknown): Omit<RegistrationItem, 'answer'> {
    return validateInvoiceBody(body, madridToday(clock()));
  }
  const scenarioChain = (accountId: string, taxpayerId: string) => scenarioChainOf(db, accountId, taxpayerId);

  /** Everything a registration checks before writing, for a dry run or a correction: ownership read from the database. */
  async function check(accountId: string, body: unknown): Promise<CheckedInvoice> {
    const { invoice, warnings } = validateBody(body);
    const [taxpayer, system] = await Promise.all([
      isUuid(invoice.taxpayerId) ? taxpayerStore.find(db, accountId, invoice.taxpayerId) : undefined,
      isUuid(invoice.computerSystemId) ? systemStore.find(db, accountId, invoice.computerSystemId) : undefined,
    ]);
    if (!taxpayer) throw taxpayerNotFound();
    if (!system) throw systemNotFound();
    if (!usableBy(system, invoice.taxpayerId)) throw systemSingleTaxpayer(system.soleTaxpayerId);
    const issuerProblems = checkAgainstIssuer(invoice, taxpayer.nif);
    if (issuerProblems.length > 0) throw ApiError.validation(issuerProblems);
    return { invoice, warnings, system };
  }

  return {
    check,

    /** Dry run: every check registration makes before writing, nothing stored or counted. */
    async validate(accountId: string, body: unknown): Promise<ValidationIssue[]> {
      return (await check(accountId, body)).warnings;
    },

    /**
     * Registers one invoice: appended to its taxpayer's chain together with whatever registrations of that taxpayer
     * are waiting (group commit). `answer`: with an Idempotency-Key, the answer stored in the same statement.
     */
    register: (
      account: AccountWithPlan | UncheckedApiKey,
      body: unknown,
      log: Logger,
      answer?: (r: RegisteredInvoice) => SealedAnswer,
      scenario?: string,
      // Whoever calls (a route, the dashboard's panel), a scenario is one of the catalogue's, or a 400.
    ) =>
      registerInvoice(
        { appender, validateBody, scenarioChain },
        account,
        body,
        log,
        answer,
        scenario === undefined ? undefined : requestedScenario(scenario),
      ),

    /**
     * Registers up to MAX_BATCH_ITEMS invoices, each validated on its own; the valid items of one taxpayer are appended
     * in one transaction, in array order. Returns one outcome per item, in order. `answerFor`: with an
     * Idempotency-Key, each item's answer, stored with the item in its taxpayer's append.
     */
    registerBatch: (
      account: AccountWithPlan,
      bodies: unknown[],
      log: Logger,
      answerFor?: (at: number) => (r: RegisteredInvoice) => SealedAnswer,
    ): Promise<ItemOutcome[]> => registerBatch({ appender, validateBody, scenarioChain }, account, bodies, log, answerFor),

    /** The taxpayer's scenario chain, ready for a correction or cancellation under a scenario. */
    scenarioChain,
  };
}

/** What registering needs of the service: the chain writer, and the checks an invoice passes on its own. */
export interface RegistrationSteps {
  appender: RegistrationAppender;
  validateBody(body: unknown): Omit<RegistrationItem, 'answer'>;
  /** Makes the taxpayer's scenario chain ready (refusing a production taxpayer), before a scenario record is appended. */
  scenarioChain(accountId: string, taxpayerId: string): Promise<void>;
}

/**
 * Registers one invoice: appended to its taxpayer's chain together with whatever registrations of that taxpayer
 * are waiting (group commit). `answer`: with an Idempotency-Key, the answer stored in the same statement. With an
 * API key not yet checked, the append's read checks it; a refusal before the append checks it first (a 401 then).
 */
async function registerInvoice(
  deps: RegistrationSteps,
  account: AccountWithPlan | UncheckedApiKey,
  body: unknown,
  log: Logger,
  answer?: (r: RegisteredInvoice) => SealedAnswer,
  scenario?: string,
): Promise<RegisteredInvoice> {
  const checkKey = () => ('verify' in account ? account.verify() : undefined);
  let outcome: ItemOutcome;
  try {
    let item: Omit<RegistrationItem, 'answer'>;
    try {
      item = deps.validateBody(body);
    } catch (err) {
      if (err instanceof ApiError) await checkKey();
      throw err;
    }
    const refused = unknownIds(item);
    if (refused) {
      await checkKey();
      outcome = { ok: false, error: refused };
    } else {
      const taxpayerId = item.invoice.taxpayerId;
      // A scenario request always comes with its account checked (registrationChecksItsKey).
      if (scenario !== undefined) await deps.scenarioChain((account as AccountWithPlan).id, taxpayerId);
      const appended = await deps.appender.append({
        account,
        taxpayerId,
        items: [{ ...item, answer, ...(scenario !== undefined && { sandboxScenario: scenario }) }],
        scenario: scenario !== undefined,
      });
      warnIfNotWoken(log, appended);
      const first = appended.outcomes[0];
      // Not a registration yet: its route registers it again, with the account's recipient check (not counted here).
      if (!first.ok && first.error.code === 'recipient_check_default') throw new RecipientCheckDefault();
      outcome = clientOutcome(first);
    }
  } catch (err) {
    // A request without a valid API key is no registration, as when the key is checked before the route.
    if (!isUnauthorized(err) && !(err instanceof RecipientCheckDefault))
      countRegistrations([err instanceof ApiError ? { ok: false, error: err } : undefined]);
    throw err;
  }
  if (!(!outcome.ok && isUnauthorized(outcome.error))) countRegistrations([outcome]);
  if (!outcome.ok) throw outcome.error;
  return outcome.registered;
}

function isUnauthorized(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'unauthorized';
}

/** An item whose ids cannot name anything in any account fails before the database is asked. */
export function unknownIds(item: Omit<RegistrationItem, 'answer'>): ApiError | undefined {
  if (!isUuid(item.invoice.taxpayerId)) return taxpayerNotFound();
  if (!isUuid(item.invoice.computerSystemId)) return systemNotFound();
  return undefined;
}

/** Once the wake-up is over (after the answer has gone), the records it failed to enqueue are logged. */
export function warnIfNotWoken(log: Logger, { woken, outcomes }: AppendOutcome): void {
  void woken.then((err) => {
    if (err === undefined) return;
    for (const o of outcomes) {
      if (o.ok)
        log.warn(
          { err, invoiceId: o.registered.id, chainId: o.registered.chainId },
          'invoice stored but not enqueued; the reconciler will enqueue it',
        );
    }
  });
}

const NONE: readonly FieldIssue[] = [];

export interface ValidInvoiceBody {
  invoice: NormalizedInvoice;
  warnings: ValidationIssue[];
}

/**
 * What an invoice body must satisfy on its own, in one pass: the authority's rules (@vf/core, with the authority's
 * codes) and the documented request shape (the schema the OpenAPI document shows), every problem of both in one
 * 422. No I/O; the rules that need the issuing taxpayer are checked once it is read.
 */
export function validateInvoiceBody(body: unknown, today: string): ValidInvoiceBody {
  const rules = validateInvoiceRequest(body, { today });
  const shape = shapeIssuesBeyond(invoiceRequestSchema, body, rules.valid ? NONE : rules.errors);
  if (!rules.valid) {
    throw new ApiError('validation_failed', 'The invoice is not valid; nothing was registered. See errors.', {
      errors: [...rules.errors, ...shape],
      extensions: { warnings: rules.warnings },
    });
  }
  if (shape.length > 0) throw ApiError.validation(shape, 'The invoice does not have the documented request shape; see errors.');
  return { invoice: rules.invoice, warnings: rules.warnings };
}

export const taxpayerNotFound = () => new ApiError('taxpayer_not_found', 'No taxpayer with this taxpayer_id in your account.');

// Another account's taxpayer or system is exactly as absent as a missing one: 404, never a hint that it exists.
export const systemNotFound = () => new ApiError('system_not_found', 'No computer system with this computer_system_id in your account.');

export const systemSingleTaxpayer = (soleTaxpayerId: string | null) =>
  new ApiError(
    'system_single_taxpayer',
    'This computer system declares it supports one taxpayer (supports_multiple_taxpayers: false) and keeps the records of another taxpayer of your account. Use a system that supports several taxpayers, or create a system (its own installation) for this taxpayer.',
    { extensions: { sole_taxpayer_id: soleTaxpayerId } },
  );

/**
 * A lone registration came with its API key unchecked, and the key's account checks recipients by default: nothing
 * was written, its route registers it again with the account and the check.
 */
export class RecipientCheckDefault extends Error {
  constructor() {
    super('the account checks the recipients of its registrations by default');
    this.name = 'RecipientCheckDefault';
  }
}

/** The one place a refusal of the chain writer (@vf/chain) becomes the API's problem. */
export function problemOf(refusal: ChainRefusal): ApiError {
  switch (refusal.code) {
    case 'unauthorized':
      return invalidApiKey();
    case 'taxpayer_not_found':
      return taxpayerNotFound();
    case 'system_not_found':
      return systemNotFound();
    case 'system_single_taxpayer':
      return systemSingleTaxpayer(refusal.soleTaxpayerId);
    case 'validation_failed':
      return ApiError.validation(refusal.issues);
    case 'duplicate_invoice':
      return new ApiError(
        'duplicate_invoice',
        `Invoice ${refusal.invoiceNumber} of ${refusal.invoiceDate} is already registered for this taxpayer.`,
      );
    case 'quota_exceeded':
      return quotaExceeded(refusal.account, refusal.used, refusal.at);
    case 'system_verifactu_only':
      return new ApiError(
        'system_verifactu_only',
        'The taxpayer works in NO VERI*FACTU mode, and this computer system declares it can only work as VERI*FACTU (only_supports_verifactu: true). Use a system that can work both ways.',
      );
    case 'signing_certificate_unusable':
      return signingCertificateUnusable(refusal.reason);
    case 'recipient_check_default':
      // Only a registration whose key was left to the chain read meets it, and registerInvoice takes it first.
      throw new RecipientCheckDefault();
  }
}

/** In NO VERI*FACTU a record exists only once signed: without a certificate that can sign, nothing is registered. */
export const signingCertificateUnusable = (reason: string) =>
  new ApiError(
    'signing_certificate_unusable',
    `In NO VERI*FACTU mode each record is signed when it is registered, and no certificate can sign for this taxpayer now (${reason}). Upload a valid certificate for the taxpayer; nothing was registered.`,
  );

/** A registration's outcome from the chain writer, its refusal as the API's problem. */
export const clientOutcome = (o: ChainItemOutcome): ItemOutcome => (o.ok ? o : { ok: false, error: problemOf(o.error) });

/** A record of an existing invoice appended by the chain writer: its refusal thrown as the API's problem. */
export async function refusedAsProblem<T>(appending: Promise<T>): Promise<T> {
  try {
    return await appending;
  } catch (err) {
    if (err instanceof ChainRefusedError) throw problemOf(err.refusal);
    throw err;
  }
}

/** The answer to a registration, built once for the client and for the idempotency record stored with the write. */
export function registeredAnswer(r: RegisteredInvoice): JsonAnswer & { body: { message: string; data: Record<string, unknown> } } {
  return {
    status: 201,
    location: `/api/v1/invoices/${r.id}`,
    body: {
      message:
        r.operatingMode === 'no_verifactu'
          ? 'Invoice registered, its record signed and kept (NO VERI*FACTU: sent to the tax authority only on its request).'
          : 'Invoice registered and queued for submission to the tax authority.',
      data: registeredData(r),
    },
  };
}

/** What the answer says of the registered invoice: also a batch item's `data`. */
export function registeredData(r: RegisteredInvoice): Record<string, unknown> {
  return {
    id: r.id,
    invoice_number: r.invoiceNumber,
    hash: r.hash,
    qr_url: r.qrUrl,
    authority_status: r.operatingMode === 'no_verifactu' ? 'kept' : 'queued',
    operating_mode: r.operatingMode,
    // NO VERI*FACTU: the record exists once signed; the signed bytes as kept, and where to read them again.
    signed_record:
      r.signedXml === undefined
        ? null
        : { url: `/api/v1/invoices/${r.id}/records/${r.id}/xml`, xml_base64: Buffer.from(r.signedXml, 'utf8').toString('base64') },
    record_type: 'registration',
    taxpayer_id: r.taxpayerId,
    chain_position: r.chainPosition,
    previous_hash: r.previousHash,
    generated_at: r.generatedAt,
    warnings: r.warnings,
  };
}
