import cookieParser from 'cookie-parser';
import { Router, type RequestHandler } from 'express';
import { accountStore } from '@vf/db/src/stores';
import type { AppDeps } from '../app-deps';
import type { Services } from '../compose';
import { apiKeyRoutes } from './api-key/api-key-routes';
import { createAssetRouter } from './assets/asset-router';
import { chainRoutes } from './chain/chain-routes';
import { createChainVerificationService } from './chain/chain-verification-service';
import { dashboardErrorHandler } from './http/dashboard-error-handler';
import { csrfRefusedPage, notFoundPage } from './http/error-pages';
import { formBody } from './http/form-body';
import { createPageRenderer } from './http/page-renderer';
import { securityHeaders } from './http/security-headers';
import { createDashboardInvoiceService } from './invoices/dashboard-invoice-service';
import { invoiceActionRoutes } from './invoices/invoice-action-routes';
import { invoiceRoutes } from './invoices/invoice-routes';
import { overviewRoutes } from './overview/overview-routes';
import { createOverviewService } from './overview/overview-service';
import { verifyCsrf } from './session/csrf';
import { loadSession, requireSession } from './session/session-cookie';
import { createSessionService } from './session/session-service';
import { createSignInService } from './sign-in/sign-in-service';
import { signInRoutes } from './sign-in/sign-in-routes';
import { systemRoutes } from './systems/system-routes';
import { taxpayerRoutes } from './taxpayers/taxpayer-routes';
import { webhookRoutes } from './webhooks/webhook-routes';

/** Paths the dashboard answers; everything else (the API, Bull Board) passes through untouched. */
function isDashboardPath(path: string): boolean {
  return ['/', '/login', '/signup', '/logout', '/app'].includes(path) || path.startsWith('/app/');
}

/**
 * The tenant dashboard: server-rendered pages on the same accounts, services and data as the API. Mount it after
 * the API routes and before the API's not-found handler.
 */
export function createDashboard(deps: AppDeps, services: Services): Router {
  const { db } = deps;
  const { clock } = services;
  const assets = createAssetRouter();
  const render = createPageRenderer(assets.urls);
  const sessions = createSessionService({ db, now: clock });
  // The API's hasher and throttle: one bcrypt pool, and an account paused on one path is paused on every path.
  const signIn = createSignInService({ db, passwords: services.passwords, sessions, throttle: services.throttle });

  const overview = createOverviewService({ db, accounts: services.account });

  const pages = Router();
  pages.use(securityHeaders, cookieParser(), loadSession(sessions), formBody);
  pages.use(verifyCsrf((req, res) => render(req, res, csrfRefusedPage(), 403)));
  pages.use('/app', requireSession);
  pages.use(
    signInRoutes({ auth: services.auth, signIn, render }),
    overviewRoutes({ overview, render, clock }),
    invoiceRoutes({ invoices: createDashboardInvoiceService({ db, invoices: services.invoices, taxpayers: services.taxpayers }), taxpayers: services.taxpayers, qr: services.qr, resend: services.resend, render }),
    invoiceActionRoutes({ registration: services.registration, cancellation: services.cancellation, invoices: services.invoices, accountById: (id) => accountStore.findById(db, id), render }),
    taxpayerRoutes({ taxpayers: services.taxpayers, render, clock }),
    chainRoutes({ chain: services.chain, verification: createChainVerificationService({ db }), render }),
    systemRoutes({ systems: services.systems, render }),
    apiKeyRoutes({ overview, auth: services.auth, render }),
    webhookRoutes({ webhooks: services.webhooks, render }),
  );
  pages.use((req, res) => render(req, res, notFoundPage(), 404));
  pages.use(dashboardErrorHandler(render));

  const onlyDashboardPaths: RequestHandler = (req, res, next) => (isDashboardPath(req.path) ? pages(req, res, next) : next());
  const router = Router();
  router.use(assets.router, onlyDashboardPaths);
  return router;
}
