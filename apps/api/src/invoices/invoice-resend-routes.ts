import { Router } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { sealedAnswerFor, sendAnswer, type JsonAnswer } from '../idempotency/sealed-answer';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { InvoiceResendService, ResentInvoice } from './invoice-resend-service';
import { renderInvoiceDetail } from './invoice-view';
import { resendResponse } from './invoice-response-schemas';
import type { RouteDoc } from '../openapi/route-doc';

const resentAnswer = (r: ResentInvoice): JsonAnswer => ({
  status: 202,
  location: `/api/v1/invoices/${r.invoice.invoice.id}`,
  body: {
    message: 'The invoice goes to the tax authority again, unchanged, together with any earlier record of its taxpayer in error.',
    data: { ...renderInvoiceDetail(r.invoice), resumed_records: r.resumedRecords },
  },
});

export function invoiceResendRoutes(resends: InvoiceResendService): Router {
  const router = Router();
  router
    .route('/invoices/:id/resend')
    .post(async (req, res) => {
      const r = await resends.resend(currentAccount(res).id, req.params.id, req.log, sealedAnswerFor(res, resentAnswer));
      sendAnswer(res, resentAnswer, r);
    })
    .all(methodNotAllowed(['POST']));
  return router;
}

export const invoiceResendRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    operationId: 'resendInvoice',
    path: '/invoices/:id/resend',
    tag: 'Invoices',
    summary: 'Send an invoice in error to the authority again, unchanged',
    responses: { 202: { description: 'Queued again.', json: resendResponse, headers: { Location: 'The invoice’s URL.' } } },
    problems: ['invoice_not_found', 'not_resendable'],
  },
];
