import type { Logger } from 'pino';
import { checkAgainstIssuer, madridToday, type ValidationIssue } from '@vf/core';
import type { Db } from '@vf/db';
import { systemStore, taxpayerStore, type AccountWithPlan, type SealedAnswer, type SystemRow } from '@vf/db';
import { FULL_BATCH } from '@vf/db';
import type { UncheckedApiKey } from '../auth/require-api-key';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { countRegistrations } from '../metrics/registration-metrics';
import {
  systemNotFound,
  systemSingleTaxpayer,
  taxpayerNotFound,
  usableBy,
  type ItemOutcome,
  type RegisteredInvoice,
  type RegistrationItem,
} from './plan-registrations';
import type { AppendOutcome, RegistrationAppender } from './registration-appender';
import { validateInvoiceBody } from './validate-invoice-body';

export type { ItemOutcome, RegisteredInvoice } from './plan-registrations';

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

  /** Once the wake-up is over (after the answer has gone), the records it failed to enqueue are logged. */
  function warnIfNotWoken(log: Logger, { woken, outcomes }: AppendOutcome): void {
    void woken.then((err) => {
      if (err !== undefined) warnNotEnqueued(log, err, outcomes);
    });
  }

  function warnNotEnqueued(log: Logger, err: unknown, outcomes: ItemOutcome[]): void {
    for (const o of outcomes) {
      if (o.ok)
        log.warn(
          { err, invoiceId: o.registered.id, chainId: o.registered.chainId },
          'invoice stored but not enqueued; the reconciler will enqueue it',
        );
    }
  }

  /** What an invoice must satisfy on its own (validate-invoice-body.ts). No I/O. */
  function validateBody(body: unknown): Omit<RegistrationItem, 'answer'> {
    return validateInvoiceBody(body, madridToday(clock()));
  }

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

  /** An item whose ids cannot name anything in any account fails before the database is asked. */
  function unknownIds(item: Omit<RegistrationItem, 'answer'>): ApiError | undefined {
    if (!isUuid(item.invoice.taxpayerId)) return taxpayerNotFound();
    if (!isUuid(item.invoice.computerSystemId)) return systemNotFound();
    return undefined;
  }

  return {
    check,

    /** Dry run: every check registration makes before writing, nothing stored or counted. */
    async validate(accountId: string, body: unknown): Promise<ValidationIssue[]> {
      return (await check(accountId, body)).warnings;
    },

    /**
     * Registers one invoice: appended to its taxpayer's chain together with whatever registrations of that taxpayer
     * are waiting (group commit). `answer`: with an Idempotency-Key, the answer stored in the same statement. With an
     * API key not yet checked, the append's read checks it; a refusal before the append checks it first (a 401 then).
     */
    async register(
      account: AccountWithPlan | UncheckedApiKey,
      body: unknown,
      log: Logger,
      answer?: (r: RegisteredInvoice) => SealedAnswer,
    ): Promise<RegisteredInvoice> {
      const checkKey = () => ('verify' in account ? account.verify() : undefined);
      let outcome: ItemOutcome;
      try {
        let item: Omit<RegistrationItem, 'answer'>;
        try {
          item = validateBody(body);
        } catch (err) {
          if (err instanceof ApiError) await checkKey();
          throw err;
        }
        const refused = unknownIds(item);
        if (refused) {
          await checkKey();
          outcome = { ok: false, error: refused };
        } else {
          const appended = await appender.append({ account, taxpayerId: item.invoice.taxpayerId, items: [{ ...item, answer }] });
          warnIfNotWoken(log, appended);
          [outcome] = appended.outcomes;
        }
      } catch (err) {
        // A request without a valid API key is no registration, as when the key is checked before the route.
        if (!isUnauthorized(err)) countRegistrations([err instanceof ApiError ? { ok: false, error: err } : undefined]);
        throw err;
      }
      if (!(!outcome.ok && isUnauthorized(outcome.error))) countRegistrations([outcome]);
      if (!outcome.ok) throw outcome.error;
      return outcome.registered;
    },

    /**
     * Registers up to MAX_BATCH_ITEMS invoices, each validated on its own; the valid items of one taxpayer are appended
     * in one transaction, in array order. Returns one outcome per item, in order. `answerFor`: with an
     * Idempotency-Key, each item's answer, stored with the item in its taxpayer's append.
     */
    async registerBatch(
      account: AccountWithPlan,
      bodies: unknown[],
      log: Logger,
      answerFor?: (at: number) => (r: RegisteredInvoice) => SealedAnswer,
    ): Promise<ItemOutcome[]> {
      const outcomes: ItemOutcome[] = new Array(bodies.length);
      const byTaxpayer = new Map<string, { at: number[]; items: RegistrationItem[] }>();
      bodies.forEach((body, at) => {
        let item: Omit<RegistrationItem, 'answer'>;
        try {
          item = validateBody(body);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          outcomes[at] = { ok: false, error: err };
          return;
        }
        const refused = unknownIds(item);
        if (refused) {
          outcomes[at] = { ok: false, error: refused };
          return;
        }
        const group = byTaxpayer.get(item.invoice.taxpayerId) ?? { at: [], items: [] };
        group.at.push(at);
        group.items.push({ ...item, answer: answerFor?.(at) });
        byTaxpayer.set(item.invoice.taxpayerId, group);
      });
      await Promise.all(
        [...byTaxpayer].map(async ([taxpayerId, group]) => {
          const appended = await appender.append({ account, taxpayerId, items: group.items });
          warnIfNotWoken(log, appended);
          group.at.forEach((at, n) => (outcomes[at] = appended.outcomes[n]));
        }),
      );
      countRegistrations(outcomes);
      return outcomes;
    },
  };
}

function isUnauthorized(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'unauthorized';
}
