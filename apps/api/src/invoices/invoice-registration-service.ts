import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { checkAgainstIssuer, correctionFlags, madridToday, type ValidationIssue } from '@vf/core';
import type { Db } from '@vf/db';
import { invoiceStore, systemStore, taxpayerStore, type AccountWithPlan, type InvoiceRow, type SealedAnswer, type SystemRow } from '@vf/db';
import { FULL_BATCH } from '@vf/db';
import { wakeChainSender, wakeChainSenders, type Queues } from '@vf/queue';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { countRegistrations } from '../metrics/registration-metrics';
import type { BeforeCommit } from '../shared/before-commit';
import { withTimeout } from '@vf/lifecycle';
import { altaRecordRow } from './alta-record-row';
import { closeChainSlot, openChainSlot, taxpayerNotFound } from './chain-slot';
import {
  systemNotFound,
  systemSingleTaxpayer,
  usableBy,
  type ItemOutcome,
  type RegisteredInvoice,
  type RegistrationItem,
} from './plan-registrations';
import { assertInCurrentChain, awaitingAuthority, historyEntry, identityChanges, invoiceNotFound } from './record-history';
import { createRegistrationAppender, type AppendedChain, type AppendOutcome } from './registration-appender';
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
  queues: Queues;
  clock: () => Date;
  enqueueTimeoutMs: number;
  /** For what happens after a group of requests committed together (waking the chain's sender). */
  logger: Logger;
}

export function createInvoiceRegistrationService(deps: RegistrationServiceDeps) {
  const { db, clock } = deps;

  /**
   * After commit: PostgreSQL already holds the records, so a Redis outage only delays them (the reconciler wakes the
   * chains). Resolves to the error when the wake failed.
   */
  async function wake(chains: AppendedChain[]): Promise<unknown> {
    // A full message now waits: the authority lets it go before its waiting time is over.
    const full = ({ count, backlog }: AppendedChain) => backlog >= FULL_BATCH && backlog - count < FULL_BATCH;
    try {
      await withTimeout(
        wakeChainSenders(
          deps.queues.submission,
          chains.map((c) => ({ chainId: c.chainId, full: full(c) })),
        ),
        deps.enqueueTimeoutMs,
        'enqueue',
      );
      return undefined;
    } catch (err) {
      return err;
    }
  }

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

  const appender = createRegistrationAppender({ db, clock, afterAppend: wake });

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

  /** A subsanación: the corrected invoice as a new record of the invoice, flags chosen from its history. */
  async function appendCorrection(
    account: AccountWithPlan,
    invoiceId: string,
    checked: CheckedInvoice,
    beforeCommit?: BeforeCommit<InvoiceRow>,
  ): Promise<InvoiceRow> {
    const { invoice } = checked;
    const id = randomUUID();
    // Read before the chain lock: nothing that needs it waits for this.
    const severalTaxpayers = (await taxpayerStore.countForAccount(db, account.id)) > 1;
    return db.transaction(async (tx) => {
      const slot = await openChainSlot(tx, account.id, invoice.taxpayerId, clock());
      // Read under the chain lock: a concurrent correction of the same invoice is either seen here or waits for us.
      const records = await invoiceStore.recordsOf(tx, account.id, invoiceId);
      if (records.length === 0) throw invoiceNotFound();
      const original = records[0];
      const changed = identityChanges(original, invoice);
      if (changed.length > 0) {
        throw ApiError.validation(
          changed,
          'A correction keeps the taxpayer, number and date of the invoice; register a new invoice to change them.',
        );
      }
      assertInCurrentChain(original, slot);
      if (!checked.system.supportsMultipleTaxpayers) {
        const sole = await systemStore.takeSole(tx, checked.system.id, invoice.taxpayerId);
        if (sole !== invoice.taxpayerId) throw systemSingleTaxpayer(sole);
      }
      // A cancelled invoice is corrected like any other: the subsanación reactivates it once the authority accepts it.
      const decision = correctionFlags(records.map(historyEntry));
      if (decision.kind !== 'flags') throw awaitingAuthority(records);
      const { row, lines } = altaRecordRow({
        accountId: account.id,
        id,
        taxpayer: slot.taxpayer,
        position: slot.position,
        previous: slot.previous,
        generated: slot.generated,
        invoice,
        system: checked.system,
        severalTaxpayers,
        warnings: checked.warnings,
      });
      const inserted = await invoiceStore.insertRecord(
        tx,
        {
          ...row,
          invoiceId,
          chainId: slot.chain.id,
          recordType: 'correction',
          subsanacion: true,
          rechazoPrevio: decision.flags.rechazoPrevio ?? null,
        },
        lines,
        'queued',
      );
      await closeChainSlot(tx, slot, id);
      await beforeCommit?.(tx, inserted);
      return inserted;
    });
  }

  return {
    check,

    /** `beforeCommit` runs last inside the correction's transaction (the idempotent answer is stored there). */
    async correct(
      account: AccountWithPlan,
      invoiceId: string,
      body: unknown,
      log: Logger,
      beforeCommit?: BeforeCommit<InvoiceRow>,
    ): Promise<InvoiceRow> {
      if (!isUuid(invoiceId)) throw invoiceNotFound();
      const checked = await check(account.id, body);
      const record = await appendCorrection(account, invoiceId, checked, beforeCommit);
      const err = await withTimeout(wakeChainSender(deps.queues.submission, record.chainId), deps.enqueueTimeoutMs, 'enqueue').then(
        () => undefined,
        (e: unknown) => e,
      );
      if (err) log.warn({ err, invoiceId: record.id }, 'correction stored but not enqueued; the reconciler will enqueue it');
      return record;
    },

    /** Dry run: every check registration makes before writing, nothing stored or counted. */
    async validate(accountId: string, body: unknown): Promise<ValidationIssue[]> {
      return (await check(accountId, body)).warnings;
    },

    /**
     * Registers one invoice: appended to its taxpayer's chain together with whatever registrations of that taxpayer
     * are waiting (group commit). `answer`: with an Idempotency-Key, the answer stored in the same statement.
     */
    async register(
      account: AccountWithPlan,
      body: unknown,
      log: Logger,
      answer?: (r: RegisteredInvoice) => SealedAnswer,
    ): Promise<RegisteredInvoice> {
      let outcome: ItemOutcome;
      try {
        const item = validateBody(body);
        const refused = unknownIds(item);
        if (refused) outcome = { ok: false, error: refused };
        else {
          const appended = await appender.append({ account, taxpayerId: item.invoice.taxpayerId, items: [{ ...item, answer }] });
          warnIfNotWoken(log, appended);
          [outcome] = appended.outcomes;
        }
      } catch (err) {
        countRegistrations([err instanceof ApiError ? { ok: false, error: err } : undefined]);
        throw err;
      }
      countRegistrations([outcome]);
      if (!outcome.ok) throw outcome.error;
      return outcome.registered;
    },

    /**
     * Registers up to MAX_BATCH_ITEMS invoices, each validated on its own; the valid items of one taxpayer are appended
     * in one transaction, in array order. Returns one outcome per item, in order.
     */
    async registerBatch(account: AccountWithPlan, bodies: unknown[], log: Logger): Promise<ItemOutcome[]> {
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
        group.items.push(item);
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
