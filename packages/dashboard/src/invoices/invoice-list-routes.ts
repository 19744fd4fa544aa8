import { Router, type Request, type Response } from 'express';
import type { ApiProblems, ApiRequests, ApiServices, InvoiceFilters } from '../dashboard-api';
import { formErrorsFrom } from '../http/form-errors-from';
import type { RenderPage } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { signedInSession } from '../session/session-cookie';
import type { DashboardInvoiceService } from './dashboard-invoice-service';
import { SECTION_PATHS, type InvoiceSection } from './invoice-kinds';
import { invoiceListPage, type InvoiceFilterValues } from './invoice-list-page';
import { DEFAULT_SORT, SORTS, type SortOption } from './invoice-sort-options';

const PAGE_SIZE = 25;
/** Page numbers stop somewhere: far beyond any real list, well before OFFSET gets expensive or overflows. */
const MAX_PAGE = 10_000;
const FILTER_NAMES = ['taxpayer_id', 'status', 'invoice_type', 'date_from', 'date_to', 'q'] as const;

const filterLabels = () => ({
  taxpayer_id: t('invoices.taxpayer'),
  status: t('invoices.status'),
  invoice_type: t('invoices.type'),
  date_from: t('invoices.dateFrom'),
  date_to: t('invoices.dateTo'),
  q: t('invoices.numberContains'),
});

function queryText(req: Request, name: string): string {
  const value = req.query[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** The list's filters, sort and page as asked; an unknown sort or page number falls back to the default. */
function listRequest(req: Request) {
  const filters = Object.fromEntries(FILTER_NAMES.map((n) => [n, queryText(req, n)])) as unknown as InvoiceFilterValues;
  const asked = queryText(req, 'sort');
  const sort: SortOption = (SORTS as string[]).includes(asked) ? (asked as SortOption) : DEFAULT_SORT;
  const page = Math.min(MAX_PAGE, Math.max(1, Number.parseInt(queryText(req, 'page'), 10) || 1));
  return { filters, sort, page };
}

export interface InvoiceListRouteDeps {
  invoices: DashboardInvoiceService;
  taxpayers: ApiServices['taxpayers'];
  render: RenderPage;
  clock: () => Date;
  requests: ApiRequests;
  problems: ApiProblems;
}

/** The invoice lists (invoices and corrective invoices), their CSV exports, and the statuses a list page refreshes. */
export function invoiceListRoutes(deps: InvoiceListRouteDeps): Router {
  const { invoices, render, problems } = deps;
  const router = Router();
  const account = (res: Response) => signedInSession(res).accountId;

  /** The filters checked by the API's own list schema, so the page, the export and GET /api/v1/invoices agree. */
  function parseFilters(section: InvoiceSection, filters: InvoiceFilterValues): InvoiceFilters {
    const given = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== ''));
    if (given.date_from && given.date_to && given.date_from > given.date_to) {
      throw problems.validation([{ field: 'date_to', code: 'date_order', message: t('invoices.dateOrder') }]);
    }
    return deps.requests.invoiceList({ ...given, kind: section === 'corrective' ? 'corrective' : 'normal' });
  }

  async function list(section: InvoiceSection, req: Request, res: Response) {
    const { filters, sort, page } = listRequest(req);
    const taxpayers = await deps.taxpayers.list(account(res));
    const view = { section, filters, sort, page, pageSize: PAGE_SIZE, taxpayers, total: 0 };
    try {
      const query = parseFilters(section, filters);
      const found = await invoices.page(account(res), query, sort, page, PAGE_SIZE);
      render(req, res, invoiceListPage({ ...view, errors: {}, rows: found.rows, total: found.total, totalExact: found.totalExact }));
    } catch (err) {
      const errors = formErrorsFrom(problems.of(err), filterLabels());
      if (!errors) throw err;
      render(req, res, invoiceListPage({ ...view, errors, rows: [] }), 422);
    }
  }

  async function exportCsv(section: InvoiceSection, req: Request, res: Response) {
    const { filters, sort } = listRequest(req);
    let query: InvoiceFilters;
    try {
      query = parseFilters(section, filters);
    } catch (err) {
      // A hand-edited export link: the list page says what is wrong with the filters, field by field.
      if (!formErrorsFrom(problems.of(err), filterLabels())) throw err;
      return res.redirect(303, `${SECTION_PATHS[section]}?${new URLSearchParams(req.query as Record<string, string>).toString()}`);
    }
    const today = deps.clock().toLocaleDateString('sv-SE', { timeZone: 'Europe/Madrid' });
    await deps.invoices.exportCsv(res, account(res), query, sort, today);
  }

  router.get(SECTION_PATHS.invoices, (req, res) => list('invoices', req, res));
  router.get(SECTION_PATHS.corrective, (req, res) => list('corrective', req, res));
  // Before /app/invoices/:id, which would otherwise claim them.
  router.get(`${SECTION_PATHS.invoices}/export.csv`, (req, res) => exportCsv('invoices', req, res));
  router.get(`${SECTION_PATHS.corrective}/export.csv`, (req, res) => exportCsv('corrective', req, res));

  router.get('/app/invoices/statuses', async (req, res) => {
    const ids = queryText(req, 'ids').split(',').filter(Boolean);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ invoices: await invoices.statuses(account(res), ids) });
  });

  return router;
}
