import { randomUUID } from 'node:crypto';
import Joi from 'joi';
import type { Logger } from 'pino';
import { buildCancellationRecord, cancellationFlags } from '@vf/core';
import type { Db } from '@vf/db';
import { invoiceStore, storedContentOf, type AccountWithPlan, type InvoiceRow } from '@vf/db';
import { wakeChainSender, type Queues } from '@vf/queue';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { parseWith } from '../http/parse-with';
import type { BeforeCommit } from '../shared/before-commit';
import { withTimeout } from '@vf/lifecycle';
import { closeChainSlot, openChainSlot, previousLink } from './chain-slot';
import { assertInCurrentChain, awaitingAuthority, historyEntry, invoiceNotFound } from './record-history';

export type InvoiceCancellationService = ReturnType<typeof createInvoiceCancellationService>;

export const cancelSchema = Joi.object<{ reason?: string }>({ reason: Joi.string().trim().allow('').max(500) });

/** Anulación: a RegistroAnulacion appended to the invoice's chain, flags chosen from the invoice's history. */
export function createInvoiceCancellationService(deps: { db: Db; queues: Queues; clock: () => Date; enqueueTimeoutMs: number }) {
  const { db, clock } = deps;

  async function append(
    account: AccountWithPlan,
    invoiceId: string,
    reason: string | undefined,
    beforeCommit?: BeforeCommit<InvoiceRow>,
  ): Promise<InvoiceRow> {
    const id = randomUUID();
    return db.transaction(async (tx) => {
      const [first] = await invoiceStore.recordsOf(tx, account.id, invoiceId);
      if (!first) throw invoiceNotFound();
      const slot = await openChainSlot(tx, account.id, first.taxpayerId, clock());
      // Read again under the chain lock: what was appended meanwhile decides the flags.
      const records = await invoiceStore.recordsOf(tx, account.id, invoiceId);
      assertInCurrentChain(first, slot);
      const decision = cancellationFlags(records.map(historyEntry));
      if (decision.kind === 'cancelled') {
        throw new ApiError('already_cancelled', 'The invoice is already cancelled: an anulación of it stands (sent, waiting or accepted).');
      }
      if (decision.kind === 'awaiting_authority') throw awaitingAuthority(records);
      const latest = records[records.length - 1];
      const record = buildCancellationRecord({
        invoice: { issuerNif: first.issuerNif, invoiceNumber: first.invoiceNumber, invoiceDate: first.invoiceDate },
        system: latest.systemSnapshot,
        previous: previousLink(slot),
        generatedAt: slot.generated.literal,
        externalRef: id,
        sinRegistroPrevio: decision.flags.sinRegistroPrevio,
        rechazoPrevio: decision.flags.rechazoPrevio,
      });
      // The row repeats the content it cancels, so the invoice's latest row is always its whole current state.
      const lines = (await invoiceStore.linesOf(tx, latest.id)).map(({ id: _id, invoiceId: _invoiceId, lineNo: _lineNo, ...line }) => line);
      const inserted = await invoiceStore.insertRecord(
        tx,
        {
          id,
          invoiceId,
          chainId: slot.chain.id,
          chainSeq: slot.position,
          accountId: latest.accountId,
          ...storedContentOf(latest),
          recordType: 'cancellation',
          rechazoPrevio: decision.flags.rechazoPrevio ? 'S' : null,
          sinRegistroPrevio: decision.flags.sinRegistroPrevio,
          cancellationReason: reason || null,
          issuerNif: latest.issuerNif,
          issuerName: latest.issuerName,
          systemSnapshot: latest.systemSnapshot,
          isProduction: slot.taxpayer.isProduction,
          generatedAtLiteral: slot.generated.literal,
          generatedAt: slot.generated.at,
          previousInvoiceId: slot.previous?.id ?? null,
          previousHash: slot.previous?.hash ?? null,
          hash: record.hash,
          qrUrl: latest.qrUrl,
          authorityStatus: 'queued',
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
    /** `beforeCommit` runs last inside the cancellation's transaction (the idempotent answer is stored there). */
    async cancel(
      account: AccountWithPlan,
      invoiceId: string,
      body: unknown,
      log: Logger,
      beforeCommit?: BeforeCommit<InvoiceRow>,
    ): Promise<InvoiceRow> {
      if (!isUuid(invoiceId)) throw invoiceNotFound();
      const { reason } = parseWith(cancelSchema, body ?? {});
      const record = await append(account, invoiceId, reason, beforeCommit);
      // After commit: PostgreSQL already holds the record, so a Redis outage only delays it (the reconciler re-enqueues).
      try {
        await withTimeout(wakeChainSender(deps.queues.submission, record.chainId), deps.enqueueTimeoutMs, 'enqueue');
      } catch (err) {
        log.warn({ err, invoiceId: record.id }, 'cancellation stored but not enqueued; the reconciler will enqueue it');
      }
      return record;
    },
  };
}
