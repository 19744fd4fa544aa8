import type { Logger } from 'pino';
import { usableBy, type RegisteredInvoice, type RegistrationAppender, type RegistrationItem } from '@vf/chain';
import { checkAgainstIssuer, madridToday, type ValidationIssue } from '@vf/core';
import type { Db } from '@vf/db';
import { systemStore, taxpayerStore, type AccountWithPlan, type SealedAnswer, type SystemRow } from '@vf/db';
import { FULL_BATCH } from '@vf/db';
import type { UncheckedApiKey } from '../auth/require-api-key';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { systemNotFound, systemSingleTaxpayer, taxpayerNotFound, type ItemOutcome } from './chain-problems';
import { registerBatch } from './register-batch';
import { registerInvoice } from './register-invoice';
import { validateInvoiceBody } from './validate-invoice-body';
import { requestedScenario, scenarioChainOf } from '../sandbox/sandbox-scenario-request';

export type { ItemOutcome } from './chain-problems';
export type { RegisteredInvoice } from '@vf/chain';

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
}

export function createInvoiceRegistrationService(deps: RegistrationServiceDeps) {
  const { db, clock, writer: appender } = deps;

  /** What an invoice must satisfy on its own (validate-invoice-body.ts). No I/O. */
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
