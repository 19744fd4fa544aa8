import { Router } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { InvoiceResendService } from './invoice-resend-service';
import { renderInvoiceDetail } from './invoice-view';

export function invoiceResendRoutes(resends: InvoiceResendService): Router {
  const router = Router();
  router
    .route('/invoices/:id/resend')
    .post(async (req, res) => {
      const r = await resends.resend(currentAccount(res).id, req.params.id, req.log);
      res
        .status(202)
        .location(`/api/v1/invoices/${r.invoice.invoice.id}`)
        .json({
          message: 'The invoice goes to the tax authority again, unchanged, together with any earlier record of its taxpayer in error.',
          data: { ...renderInvoiceDetail(r.invoice), resumed_records: r.resumedRecords },
        });
    })
    .all(methodNotAllowed(['POST']));
  return router;
}
