import type { Logger } from 'pino';
import { altaRecordRow, modeAt, newRecordId, nextPlace, quotaPeriod, recordWrite, usableBy, type RegistrationAppender } from '@vf/chain';
import { correctionFlags } from '@vf/core';
import { invoiceStore, type AccountWithPlan, type Db, type SealedAnswer } from '@vf/db';
import { scenarioForRecordOf } from '../sandbox/sandbox-scenario-request';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import {
  problemOf,
  refusedAsProblem,
  systemNotFound,
  systemSingleTaxpayer,
  type InvoiceRegistrationService,
} from './invoice-registration-service';
import { assertInCurrentChain, awaitingAuthority, historyEntry, identityChanges, invoiceNotFound } from './record-history';
import { queuedRecord, type QueuedRecord } from './queued-record';

export type InvoiceCorrectionService = ReturnType<typeof createInvoiceCorrectionService>;

/**
 * Subsanación: the corrected invoice as a new record of the invoice, appended by the chain writer like any other
 * record, its flags chosen from the invoice's records. A cancelled invoice is corrected like any other: the
 * subsanación reactivates it once the authority accepts it.
 */
export function createInvoiceCorrectionService(deps: {
  db: Db;
  writer: RegistrationAppender;
  registration: Pick<InvoiceRegistrationService, 'check'>;
}) {
  return {
    /** `answer`: with an Idempotency-Key, the answer stored in the same statement as the record. */
    async correct(
      account: AccountWithPlan,
      invoiceId: string,
      body: unknown,
      log: Logger,
      answer?: (r: QueuedRecord) => SealedAnswer,
      requestedScenario?: string,
    ): Promise<QueuedRecord> {
      if (!isUuid(invoiceId)) throw invoiceNotFound();
      const checked = await deps.registration.check(account.id, body);
      const { invoice } = checked;
      // Which chain: an invoice's records stay on the chain it began on (its scenario chain, or its chain).
      const [first] = await invoiceStore.recordsOf(deps.db, account.id, invoiceId);
      if (!first) throw invoiceNotFound();
      const scenario = await scenarioForRecordOf(deps.db, account.id, first, requestedScenario);
      const id = newRecordId();
      const { result, woken } = await refusedAsProblem(
        deps.writer.appendRecord({
          accountId: account.id,
          taxpayerId: invoice.taxpayerId,
          systemIds: [checked.system.id],
          scenario: scenario !== undefined,
          async build(ctx, reader, now) {
            // Read after the head: a correction or cancellation appended since moves the head, and this is built again.
            const records = await invoiceStore.recordsOf(reader, account.id, invoiceId);
            if (records.length === 0) throw invoiceNotFound();
            const original = records[0];
            const changed = identityChanges(original, invoice);
            if (changed.length > 0) {
              throw ApiError.validation(
                changed,
                'A correction keeps the taxpayer, number and date of the invoice; register a new invoice to change them.',
              );
            }
            assertInCurrentChain(original, ctx);
            const system = ctx.systems.get(checked.system.id);
            if (!system) throw systemNotFound();
            if (!usableBy(system, ctx.taxpayer.id)) throw systemSingleTaxpayer(system.soleTaxpayerId);
            const noVerifactu = modeAt(ctx.chain.mode, now) === 'no_verifactu';
            if (noVerifactu && system.onlySupportsVerifactu) throw problemOf({ code: 'system_verifactu_only' });
            const decision = correctionFlags(records.map(historyEntry));
            if (decision.kind !== 'flags') throw awaitingAuthority(records);
            const built = altaRecordRow({
              ...nextPlace(ctx, now),
              accountId: account.id,
              id,
              correcting: { invoiceId, rechazoPrevio: decision.flags.rechazoPrevio ?? null },
              taxpayer: ctx.taxpayer,
              invoice,
              system,
              severalTaxpayers: ctx.severalTaxpayers,
              warnings: checked.warnings,
              sandboxScenario: scenario,
              noVerifactu,
            });
            const record = queuedRecord(built.row, noVerifactu);
            return { write: recordWrite(ctx, quotaPeriod(now).period, built, answer?.(record)), result: record };
          },
        }),
      );
      const err = await woken;
      if (err) log.warn({ err, invoiceId: result.id }, 'correction stored but not enqueued; the reconciler will enqueue it');
      return result;
    },
  };
}
