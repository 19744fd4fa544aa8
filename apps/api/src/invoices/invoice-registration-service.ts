import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { correctionFlags, madridToday, validateInvoiceRequest, type NormalizedInvoice, type ValidationIssue } from '@vf/core';
import type { Db, DbOrTx } from '@vf/db';
import { invoiceStore, StoreError, systemStore, taxpayerStore, usageStore, type AccountWithPlan, type InvoiceRow, type SystemRow } from '@vf/db/src/stores';
import { enqueueSubmission, type Queues } from '@vf/queue';
import { ApiError, type FieldIssue } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { issuesOf } from '../http/parse-with';
import { withRegistrationMetrics } from '../metrics/registration-metrics';
import { quotaPeriod } from '../quota/quota-period';
import type { BeforeCommit } from '../shared/before-commit';
import { withTimeout } from '../shared/with-timeout';
import { altaRecordRow } from './alta-record-row';
import { closeChainSlot, openChainSlot, taxpayerNotFound } from './chain-slot';
import { invoiceRequestSchema } from './invoice-request-schema';
import { assertInCurrentChain, awaitingAuthority, historyEntry, identityChanges, invoiceNotFound } from './record-history';

export interface RegisteredInvoice {
  id: string;
  taxpayerId: string;
  chainId: string;
  invoiceNumber: string;
  hash: string;
  previousHash: string | null;
  chainPosition: number;
  generatedAt: string;
  qrUrl: string;
  warnings: ValidationIssue[];
}

export interface CheckedInvoice {
  invoice: NormalizedInvoice;
  warnings: ValidationIssue[];
  system: SystemRow;
}

export type InvoiceRegistrationService = ReturnType<typeof createInvoiceRegistrationService>;

// Another account's taxpayer or system is exactly as absent as a missing one: 404, never a hint that it exists.
const systemNotFound = () => new ApiError('system_not_found', 'No computer system with this computer_system_id in your account.');

const RECIPIENT_IS_ISSUER: FieldIssue = {
  field: 'recipient.nif',
  code: 'recipient_is_issuer',
  message: "the recipient's NIF must differ from the issuing taxpayer's",
  authority_code: 1193,
};

export function createInvoiceRegistrationService(deps: { db: Db; queues: Queues; clock: () => Date; enqueueTimeoutMs: number }) {
  const { db, clock } = deps;

  /** The authority's rules, then ownership: another account's taxpayer or system reads as "not found". */
  async function check(accountId: string, body: unknown): Promise<CheckedInvoice> {
    const result = validateInvoiceRequest(body, { today: madridToday(clock()) });
    if (!result.valid) {
      throw new ApiError('validation_failed', 'The invoice is not valid; nothing was registered. See errors.', {
        errors: result.errors,
        extensions: { warnings: result.warnings },
      });
    }
    const shape = invoiceRequestSchema.validate(body, { abortEarly: false, errors: { wrap: { label: false } } });
    if (shape.error) throw ApiError.validation(issuesOf(shape.error), 'The invoice does not have the documented request shape; see errors.');
    const { invoice } = result;
    const [taxpayer, system] = await Promise.all([
      isUuid(invoice.taxpayerId) ? taxpayerStore.find(db, accountId, invoice.taxpayerId) : undefined,
      isUuid(invoice.computerSystemId) ? systemStore.find(db, accountId, invoice.computerSystemId) : undefined,
    ]);
    if (!taxpayer) throw taxpayerNotFound();
    if (!system) throw systemNotFound();
    const recipient = invoice.recipient;
    if (recipient && 'nif' in recipient && recipient.nif === taxpayer.nif) throw ApiError.validation([RECIPIENT_IS_ISSUER]);
    return { invoice, warnings: result.warnings, system };
  }

  async function quotaExceeded(tx: DbOrTx, account: AccountWithPlan, period: string, resetsAt: Date): Promise<ApiError> {
    const used = await usageStore.used(tx, account.id, period);
    const quota = account.plan.monthlyQuota;
    return new ApiError('quota_exceeded', `Your ${account.plan.id} plan allows ${quota} registrations per month; ${period} is used up.`, {
      extensions: { quota, used, period, resets_at: resetsAt.toISOString() },
      headers: { 'Retry-After': String(Math.max(1, Math.ceil((resetsAt.getTime() - clock().getTime()) / 1000))) },
    });
  }

  /** Appends the record to the taxpayer's chain: one transaction under the chain's row lock, no network inside. */
  async function append(account: AccountWithPlan, checked: CheckedInvoice, beforeCommit?: BeforeCommit<RegisteredInvoice>): Promise<RegisteredInvoice> {
    const { invoice } = checked;
    const { period, resetsAt } = quotaPeriod(clock());
    const id = randomUUID();
    return db.transaction(async (tx) => {
      const slot = await openChainSlot(tx, account.id, invoice.taxpayerId, clock());
      if (await invoiceStore.existsInChain(tx, slot.chain.id, invoice.invoiceNumber, invoice.invoiceDate)) {
        throw new ApiError('duplicate_invoice', `Invoice ${invoice.invoiceNumber} of ${invoice.invoiceDate} is already registered for this taxpayer.`);
      }
      const { row, lines } = await altaRecordRow(tx, slot, {
        accountId: account.id,
        id,
        invoiceId: id,
        recordType: 'registration',
        invoice,
        system: checked.system,
        warnings: checked.warnings,
      });
      await invoiceStore.insertRecord(tx, row, lines, 'queued');
      await closeChainSlot(tx, slot, id);
      // Last statement before commit: every registration of the account updates this one counter row, so its
      // lock is held only for the commit, not for the whole append. Over quota, the rollback undoes the append.
      if ((await usageStore.claim(tx, account.id, period, account.plan.monthlyQuota)) === undefined) {
        throw await quotaExceeded(tx, account, period, resetsAt);
      }
      const registered: RegisteredInvoice = {
        id,
        taxpayerId: slot.taxpayer.id,
        chainId: slot.chain.id,
        invoiceNumber: invoice.invoiceNumber,
        hash: row.hash,
        previousHash: row.previousHash ?? null,
        chainPosition: slot.position,
        generatedAt: row.generatedAtLiteral,
        qrUrl: row.qrUrl,
        warnings: checked.warnings,
      };
      await beforeCommit?.(tx, registered);
      return registered;
    });
  }

  /** Enqueues after commit: PostgreSQL already holds the record, so a Redis outage only delays it (the reconciler re-enqueues). */
  async function enqueue(recordId: string, chainId: string, log: Logger): Promise<void> {
    try {
      await withTimeout(enqueueSubmission(deps.queues.submission, { invoiceId: recordId, chainId }), deps.enqueueTimeoutMs, 'enqueue');
    } catch (err) {
      log.warn({ err, invoiceId: recordId }, 'record stored but not enqueued; the reconciler will enqueue it');
    }
  }

  /** A subsanación: the corrected invoice as a new record of the invoice, flags chosen from its history. */
  async function appendCorrection(account: AccountWithPlan, invoiceId: string, checked: CheckedInvoice, beforeCommit?: BeforeCommit<InvoiceRow>): Promise<InvoiceRow> {
    const { invoice } = checked;
    const id = randomUUID();
    return db.transaction(async (tx) => {
      const slot = await openChainSlot(tx, account.id, invoice.taxpayerId, clock());
      // Read under the chain lock: a concurrent correction of the same invoice is either seen here or waits for us.
      const records = await invoiceStore.recordsOf(tx, account.id, invoiceId);
      if (records.length === 0) throw invoiceNotFound();
      const original = records[0];
      const changed = identityChanges(original, invoice);
      if (changed.length > 0) {
        throw ApiError.validation(changed, 'A correction keeps the taxpayer, number and date of the invoice; register a new invoice to change them.');
      }
      assertInCurrentChain(original, slot);
      const decision = correctionFlags(records.map(historyEntry));
      if (decision.kind === 'cancelled') {
        throw new ApiError('invoice_cancelled', 'The invoice is cancelled (anulada); a cancelled invoice cannot be corrected. Register a new invoice instead.');
      }
      if (decision.kind === 'awaiting_authority') throw awaitingAuthority(records);
      const { row, lines } = await altaRecordRow(tx, slot, {
        accountId: account.id,
        id,
        invoiceId,
        recordType: 'correction',
        rechazoPrevio: decision.flags.rechazoPrevio,
        invoice,
        system: checked.system,
        warnings: checked.warnings,
      });
      const inserted = await invoiceStore.insertRecord(tx, row, lines, 'queued');
      await closeChainSlot(tx, slot, id);
      await beforeCommit?.(tx, inserted);
      return inserted;
    });
  }

  return withRegistrationMetrics({
    check,

    /** `beforeCommit` runs last inside the correction's transaction (the idempotent answer is stored there). */
    async correct(account: AccountWithPlan, invoiceId: string, body: unknown, log: Logger, beforeCommit?: BeforeCommit<InvoiceRow>): Promise<InvoiceRow> {
      if (!isUuid(invoiceId)) throw invoiceNotFound();
      const checked = await check(account.id, body);
      const record = await appendCorrection(account, invoiceId, checked, beforeCommit);
      await enqueue(record.id, record.chainId, log);
      return record;
    },

    /** Dry run: every check registration makes before writing, nothing stored or counted. */
    async validate(accountId: string, body: unknown): Promise<ValidationIssue[]> {
      return (await check(accountId, body)).warnings;
    },

    /** `beforeCommit` runs last inside the registration's transaction (the idempotent answer is stored there). */
    async register(account: AccountWithPlan, body: unknown, log: Logger, beforeCommit?: BeforeCommit<RegisteredInvoice>): Promise<RegisteredInvoice> {
      const checked = await check(account.id, body);
      let registered: RegisteredInvoice;
      try {
        registered = await append(account, checked, beforeCommit);
      } catch (err) {
        if (err instanceof StoreError && err.kind === 'referenced') throw systemNotFound();
        if (err instanceof StoreError && err.kind === 'conflict') {
          throw new ApiError('duplicate_invoice', `Invoice ${checked.invoice.invoiceNumber} is already registered for this taxpayer.`);
        }
        throw err;
      }
      await enqueue(registered.id, registered.chainId, log);
      return registered;
    },
  });
}
