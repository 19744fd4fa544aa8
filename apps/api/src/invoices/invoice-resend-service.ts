import type { Logger } from 'pino';
import type { Db } from '@vf/db';
import type { InvoiceDetail } from '@vf/db';
import { submissionResumeStore } from '@vf/db';
import { ensureChainSender, type Queues } from '@vf/queue';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { withTimeout } from '@vf/lifecycle';
import type { InvoiceQueryService } from './invoice-query-service';

export type InvoiceResendService = ReturnType<typeof createInvoiceResendService>;

const notFound = () => new ApiError('invoice_not_found', 'No invoice with this id in your account.');

/**
 * Resend of an invoice in `error`: the same record goes again, unchanged (same huella and timestamp, never a new chain
 * link). The other records of its chain in `error` go back with it, since records are sent in chain order.
 */
export function createInvoiceResendService(deps: { db: Db; queues: Queues; invoices: InvoiceQueryService; enqueueTimeoutMs: number }) {
  return {
    /** Returns the invoice as it stands once queued again (read before the workers can move it on). */
    async resend(accountId: string, id: string, log: Logger): Promise<{ invoice: InvoiceDetail; resumedRecords: number }> {
      if (!isUuid(id)) throw notFound();
      const attempt = await deps.db.transaction((tx) => submissionResumeStore.resendInvoice(tx, accountId, id));
      if (attempt.kind === 'not_found') throw notFound();
      if (attempt.kind === 'not_resendable') {
        throw new ApiError('not_resendable', `Only an invoice in error can be resent; this one is ${attempt.status}.`, {
          extensions: { authority_status: attempt.status },
        });
      }
      const invoice = await deps.invoices.get(accountId, id);
      // After commit: if Redis is unavailable the records are safe in PostgreSQL and the reconciler enqueues them.
      try {
        for (const chainId of new Set(attempt.records.map((r) => r.chainId)))
          await withTimeout(ensureChainSender(deps.queues.submission, chainId), deps.enqueueTimeoutMs, 'enqueue');
      } catch (err) {
        log.warn({ err, invoiceId: id }, 'resend recorded but not enqueued; the reconciler will enqueue it');
      }
      return { invoice, resumedRecords: attempt.records.length };
    },
  };
}
