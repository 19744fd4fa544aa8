import type { Logger } from 'pino';
import type { Db } from '@vf/db';
import type { InvoiceDetail } from '@vf/db';
import { idempotencyStore, invoiceStore, submissionResumeStore } from '@vf/db';
import { ensureChainSender, type Queues } from '@vf/queue';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import type { SealAnswer } from '../idempotency/sealed-answer';
import { withTimeout } from '@vf/lifecycle';

export type InvoiceResendService = ReturnType<typeof createInvoiceResendService>;

const notFound = () => new ApiError('invoice_not_found', 'No invoice with this id in your account.');

/**
 * Resend of an invoice in `error`: the same record goes again, unchanged (same huella and timestamp, never a new chain
 * link). The other records of its chain in `error` go back with it, since records are sent in chain order.
 */
export interface ResentInvoice {
  invoice: InvoiceDetail;
  resumedRecords: number;
}

export function createInvoiceResendService(deps: { db: Db; queues: Queues; enqueueTimeoutMs: number }) {
  return {
    /**
     * Returns the invoice as it stands once queued again, read in the resend's transaction (before the workers can
     * move it on); `answer`: with an Idempotency-Key, the answer stored in that transaction.
     */
    async resend(accountId: string, id: string, log: Logger, answer?: SealAnswer<ResentInvoice>): Promise<ResentInvoice> {
      if (!isUuid(id)) throw notFound();
      const { resent, chains } = await deps.db.transaction(async (tx) => {
        const attempt = await submissionResumeStore.resendInvoice(tx, accountId, id);
        // Refused before anything was written.
        if (attempt.kind === 'not_found') throw notFound();
        if (attempt.kind === 'not_resendable') {
          throw new ApiError('not_resendable', `Only an invoice in error can be resent; this one is ${attempt.status}.`, {
            extensions: { authority_status: attempt.status },
          });
        }
        const invoice = await invoiceStore.find(tx, accountId, id);
        if (!invoice) throw notFound();
        const resent: ResentInvoice = { invoice, resumedRecords: attempt.records.length };
        if (answer) await idempotencyStore.keep(tx, answer(resent));
        return { resent, chains: new Set(attempt.records.map((r) => r.chainId)) };
      });
      // After commit: if Redis is unavailable the records are safe in PostgreSQL and the reconciler enqueues them.
      try {
        for (const chainId of chains)
          await withTimeout(ensureChainSender(deps.queues.submission, chainId), deps.enqueueTimeoutMs, 'enqueue');
      } catch (err) {
        log.warn({ err, invoiceId: id }, 'resend recorded but not enqueued; the reconciler will enqueue it');
      }
      return resent;
    },
  };
}
