import cookieParser from 'cookie-parser';
import { Router, type RequestHandler } from 'express';
import { apiKeyRoutes } from './api-key/api-key-routes';
import { createAssetRouter } from './assets/asset-router';
import type { DashboardApi } from './dashboard-api';
import { chainPageRoutes } from './chain/chain-page-routes';
import { dashboardErrorHandler } from './http/dashboard-error-handler';
import { csrfRefusedPage, notFoundPage } from './http/error-pages';
import { formBody } from './http/form-body';
import { createPageRenderer } from './http/page-renderer';
import { securityHeaders } from './http/security-headers';
import { createDashboardInvoiceService } from './invoices/dashboard-invoice-service';
import { invoiceActionRoutes } from './invoices/invoice-action-routes';
import { invoicePageRoutes } from './invoices/invoice-page-routes';
import { newInvoiceRoutes } from './invoices/new-invoice-routes';
import { localeMiddleware } from './i18n/locale-middleware';
import { overviewRoutes } from './overview/overview-routes';
import { verifyCsrf } from './session/csrf';
import { loadSession, requireSession } from './session/session-cookie';
import { signInRoutes } from './sign-in/sign-in-routes';
import { systemPageRoutes } from './systems/system-page-routes';
import { taxIdPageRoutes } from './tax-ids/tax-id-page-routes';
import { taxpayerPageRoutes } from './taxpayers/taxpayer-page-routes';
import { eventLogPageRoutes } from './taxpayers/event-log-page-routes';
import { keptRecordsPageRoutes } from './kept/kept-records-page-routes';
import { webhookPageRoutes } from './webhooks/webhook-page-routes';

/** Paths the dashboard answers; everything else (the API, Bull Board) passes through untouched. */
function isDashboardPath(path: string): boolean {
  return ['/', '/login', '/signup', '/logout', '/app'].includes(path) || path.startsWith('/app/');
}

/**
 * The tenant dashboard: server-rendered pages on the same accounts, services and data as the API, which hands them
 * over (`api`) when it mounts the dashboard: after the API routes and before the API's not-found handler.
 */
export function createDashboard(api: DashboardApi): Router {
  const { clock, services, requests, problems, views } = api;
  const assets = createAssetRouter();
  const render = createPageRenderer(assets.urls);
  const { sessions, signIn, overview } = services;
  const accountById = (id: string) => overview.account(id);
  // The pages put together from the API's services; the dashboard calls no store itself.
  const invoices = createDashboardInvoiceService({
    invoices: services.invoices,
    invoiceExport: services.invoiceExport,
    taxpayers: services.taxpayers,
    views,
  });

  const pages = Router();
  pages.use(
    securityHeaders,
    cookieParser(),
    localeMiddleware,
    loadSession(sessions),
    problems.rejectControlCharactersInQuery,
    formBody(problems),
  );
  pages.use(verifyCsrf((req, res) => render(req, res, csrfRefusedPage(), 403)));
  pages.use('/app', requireSession);
  pages.use(
    signInRoutes({ auth: services.auth, signIn, render, accountById, requests, problems, views }),
    overviewRoutes({ overview, render, clock }),
    // Before invoicePageRoutes, whose /app/invoices/:id would otherwise claim /app/invoices/new.
    newInvoiceRoutes({ services, accountById, render, problems, clock }),
    invoicePageRoutes({
      clock,
      invoices,
      taxpayers: services.taxpayers,
      qr: services.qr,
      resend: services.resend,
      render,
      requests,
      problems,
      views,
    }),
    invoiceActionRoutes({
      correction: services.correction,
      cancellation: services.cancellation,
      invoices: services.invoices,
      accountById,
      render,
      problems,
      views,
    }),
    taxpayerPageRoutes({
      taxpayers: services.taxpayers,
      systems: services.systems,
      registration: services.registration,
      accountById,
      render,
      clock,
      requests,
      problems,
      views,
    }),
    eventLogPageRoutes({ eventLog: services.eventLog, taxpayers: services.taxpayers, render, problems, views }),
    keptRecordsPageRoutes({ services, render, requests, problems, views }),
    chainPageRoutes({ chain: services.chain, verification: services.chainVerification, render }),
    systemPageRoutes({ systems: services.systems, render, requests, problems, views }),
    apiKeyRoutes({ overview, auth: services.auth, render }),
    webhookPageRoutes({ webhooks: services.webhooks, render, requests, problems }),
    taxIdPageRoutes({ services, render, requests, problems, views }),
  );
  pages.use((req, res) => render(req, res, notFoundPage(), 404));
  pages.use(dashboardErrorHandler(render, problems));

  const onlyDashboardPaths: RequestHandler = (req, res, next) => (isDashboardPath(req.path) ? pages(req, res, next) : next());
  const router = Router();
  router.use(assets.router, onlyDashboardPaths);
  return router;
}
