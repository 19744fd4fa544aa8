import { Router, type Request, type Response } from 'express';
import { ApiError } from '../../errors/api-error';
import type { InvoiceResendService } from '../../invoices/invoice-resend-service';
import { isUuid } from '../../http/is-uuid';
import { parseWith } from '../../http/parse-with';
import { invoiceListSchema } from '../../invoices/invoice-list-schema';
import type { TaxpayerService } from '../../taxpayers/taxpayer-service';
import type { InvoiceQrService } from '../../qr/invoice-qr-service';
import { sendQrImage } from '../../qr/send-qr-image';
import { formErrorsFrom } from '../http/form-errors-from';
import { noticeFrom } from '../http/notices';
import type { RenderPage } from '../http/page-renderer';
import { signedInSession } from '../session/session-cookie';
import type { DashboardInvoiceService } from './dashboard-invoice-service';
import { invoiceDetailPage } from './invoice-detail-page';
import { SECTION_PATHS, type InvoiceSection } from './invoice-kinds';
import { invoiceListPage, type InvoiceFilterValues } from './invoice-list-page';

const PAGE_SIZE = 25;
const FILTER_NAMES = ['taxpayer_id', 'status', 'invoice_type', 'date_from', 'date_to', 'q'] as const;
const FILTER_LABELS = { taxpayer_id: 'Taxpayer', status: 'Status', invoice_type: 'Type', date_from: 'Dated from', date_to: 'Dated until', q: 'Number contains', cursor: 'Page' };

function queryText(req: Request, name: string): string {
  const value = req.query[name];
  return typeof value === 'string' ? value.trim() : '';
}

export function invoiceRoutes(deps: {
  invoices: DashboardInvoiceService;
  taxpayers: TaxpayerService;
  qr: InvoiceQrService;
  resend: InvoiceResendService;
  render: RenderPage;
}): Router {
  const { invoices, render } = deps;
  const router = Router();
  const account = (res: Response) => signedInSession(res).accountId;

  async function list(section: InvoiceSection, req: Request, res: Response) {
    const filters = Object.fromEntries(FILTER_NAMES.map((n) => [n, queryText(req, n)])) as unknown as InvoiceFilterValues;
    const cursor = queryText(req, 'cursor');
    const given = Object.fromEntries(Object.entries({ ...filters, cursor }).filter(([, v]) => v !== ''));
    const taxpayers = await deps.taxpayers.list(account(res));
    const view = { section, filters, taxpayers, corrected: new Map(), isFirstPage: cursor === '' };
    try {
      if (given.date_from && given.date_to && given.date_from > given.date_to) {
        throw ApiError.validation([{ field: 'date_to', code: 'out_of_range', message: 'date_to must not be before the "Dated from" date' }]);
      }
      const query = parseWith(invoiceListSchema, { ...given, kind: section === 'corrective' ? 'corrective' : 'normal', limit: PAGE_SIZE });
      const page = await invoices.list(account(res), query);
      const nextPage = page.nextCursor ? new URLSearchParams({ ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== '')), cursor: page.nextCursor }).toString() : undefined;
      render(req, res, invoiceListPage({ ...view, errors: {}, rows: page.items, corrected: page.corrected, nextPage }));
    } catch (err) {
      const errors = formErrorsFrom(err, FILTER_LABELS);
      if (!errors) throw err;
      render(req, res, invoiceListPage({ ...view, errors, rows: [] }), 422);
    }
  }

  router.get(SECTION_PATHS.invoices, (req, res) => list('invoices', req, res));
  router.get(SECTION_PATHS.corrective, (req, res) => list('corrective', req, res));

  // Before /app/invoices/:id, which would otherwise claim it.
  router.get('/app/invoices/statuses', async (req, res) => {
    const ids = queryText(req, 'ids').split(',').filter(Boolean);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ invoices: await invoices.statuses(account(res), ids) });
  });

  router.get('/app/invoices/:id', async (req, res) => {
    render(req, res, invoiceDetailPage({ ...(await invoices.detail(account(res), req.params.id)), notice: noticeFrom(req) }));
  });

  router.post('/app/invoices/:id/resend', async (req, res) => {
    const id = req.params.id;
    try {
      await deps.resend.resend(account(res), id, req.log);
      res.redirect(303, `/app/invoices/${id}?notice=invoice_resent`);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'not_resendable')) throw err;
      res.redirect(303, `/app/invoices/${id}?notice=invoice_not_resendable`);
    }
  });

  router.get('/app/invoices/:id/qr.:format', async (req, res) => {
    const format = req.params.format;
    if ((format !== 'png' && format !== 'svg') || !isUuid(req.params.id)) throw new ApiError('invoice_not_found', 'No such QR image.');
    sendQrImage(res, await deps.qr.image(account(res), req.params.id, format));
  });

  return router;
}
