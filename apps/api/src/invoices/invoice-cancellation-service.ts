import Joi from 'joi';
import type { Logger } from 'pino';
import { cancellationRecordRow, modeAt, newRecordId, nextPlace, quotaPeriod, recordWrite, type RegistrationAppender } from '@vf/chain';
import { cancellationFlags } from '@vf/core';
import type { Db } from '@vf/db';
import { invoiceStore, type AccountWithPlan, type SealedAnswer } from '@vf/db';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { parseWith } from '../http/parse-with';
import { refusedAsProblem } from './invoice-registration-service';
import { queuedRecord, type QueuedRecord } from './queued-record';
import { assertInCurrentChain, awaitingAuthority, historyEntry, invoiceNotFound } from './record-history';
import { scenarioForRecordOf } from '../sandbox/sandbox-scenario-request';

export type InvoiceCancellationService = ReturnType<typeof createInvoiceCancellationService>;

export const cancelSchema = Joi.object<{ reason?: string }>({ reason: Joi.string().trim().allow('').max(500) });

/**
 * Anulación: a RegistroAnulacion appended to the invoice's chain by the chain writer like any other record, flags
 * chosen from the invoice's records.
 */
export function createInvoiceCancellationService(deps: { db: Db; writer: RegistrationAppender }) {
  const { db } = deps;
  return {
    /** `answer`: with an Idempotency-Key, the answer stored in the same statement as the record. */
    async cancel(
      account: AccountWithPlan,
      invoiceId: string,
      body: unknown,
      log: Logger,
      answer?: (r: QueuedRecord) => SealedAnswer,
      requestedScenario?: string,
    ): Promise<QueuedRecord> {
      if (!isUuid(invoiceId)) throw invoiceNotFound();
      const { reason } = parseWith(cancelSchema, body ?? {});
      // Whose chain: an invoice's taxpayer never changes.
      const [first] = await invoiceStore.recordsOf(db, account.id, invoiceId);
      if (!first) throw invoiceNotFound();
      const scenario = await scenarioForRecordOf(db, account.id, first, requestedScenario);
      const id = newRecordId();
      const { result, woken } = await refusedAsProblem(
        deps.writer.appendRecord({
          accountId: account.id,
          taxpayerId: first.taxpayerId,
          systemIds: [],
          scenario: scenario !== undefined,
          async build(ctx, reader, now) {
            // Read after the head: what is appended since moves the head, and this is built again.
            const records = await invoiceStore.recordsOf(reader, account.id, invoiceId);
            assertInCurrentChain(first, ctx);
            const decision = cancellationFlags(records.map(historyEntry));
            if (decision.kind === 'cancelled') {
              throw new ApiError(
                'already_cancelled',
                'The invoice is already cancelled: an anulación of it stands (sent, waiting or accepted).',
              );
            }
            if (decision.kind === 'awaiting_authority') throw awaitingAuthority(records);
            const latest = records[records.length - 1];
            const built = cancellationRecordRow({
              ...nextPlace(ctx, now),
              id,
              latest: { ...latest, lines: await invoiceStore.linesOf(reader, latest.id) },
              isProduction: ctx.taxpayer.isProduction,
              sinRegistroPrevio: decision.flags.sinRegistroPrevio,
              rechazoPrevio: decision.flags.rechazoPrevio,
              reason: reason || null,
              sandboxScenario: scenario,
            });
            const record = queuedRecord(built.row, modeAt(ctx.chain.mode, now) === 'no_verifactu');
            return { write: recordWrite(ctx, quotaPeriod(now).period, built, answer?.(record)), result: record };
          },
        }),
      );
      // After commit: PostgreSQL already holds the record, so a Redis outage only delays it (the reconciler re-enqueues).
      const err = await woken;
      if (err) log.warn({ err, invoiceId: result.id }, 'cancellation stored but not enqueued; the reconciler will enqueue it');
      return result;
    },
  };
}
