import { Router, type Response } from 'express';
import type { ApiProblems, ApiRequests, ApiServices, ApiViews } from '../dashboard-api';
import { noticeFrom } from '../http/notices';
import type { RenderPage } from '../http/page-renderer';
import { signedInSession } from '../session/session-cookie';
import type { DashboardInvoiceService } from './dashboard-invoice-service';
import { invoiceDetailPage } from './invoice-detail-page';
import { invoiceListRoutes } from './invoice-list-routes';

export function invoicePageRoutes(deps: {
  invoices: DashboardInvoiceService;
  taxpayers: ApiServices['taxpayers'];
  qr: ApiServices['qr'];
  resend: ApiServices['resend'];
  render: RenderPage;
  clock: () => Date;
  requests: ApiRequests;
  problems: ApiProblems;
  views: ApiViews;
}): Router {
  const { invoices, render, problems, views } = deps;
  const router = Router();
  const account = (res: Response) => signedInSession(res).accountId;

  // First: /app/invoices/:id would otherwise claim the exports and the statuses.
  router.use(invoiceListRoutes(deps));

  router.get('/app/invoices/:id', async (req, res) => {
    render(req, res, invoiceDetailPage({ ...(await invoices.detail(account(res), req.params.id)), notice: noticeFrom(req) }));
  });

  router.post('/app/invoices/:id/resend', async (req, res) => {
    const id = req.params.id;
    try {
      await deps.resend.resend(account(res), id, req.log);
      res.redirect(303, `/app/invoices/${id}?notice=invoice_resent`);
    } catch (err) {
      if (problems.of(err)?.code !== 'not_resendable') throw err;
      res.redirect(303, `/app/invoices/${id}?notice=invoice_not_resendable`);
    }
  });

  router.get('/app/invoices/:id/qr.:format', async (req, res) => {
    const format = req.params.format;
    if ((format !== 'png' && format !== 'svg') || !views.isUuid(req.params.id)) {
      throw problems.create('invoice_not_found', 'No such QR image.');
    }
    views.sendQrImage(res, await deps.qr.image(account(res), req.params.id, format));
  });

  return router;
}
