import express, { Router, type Express } from 'express';
import { inspectDependencies, Readiness } from '@vf/lifecycle';
import { pingRedis } from '@vf/queue';
import { schemaStatus } from '@vf/db';
import { accountRouteDocs, accountRoutes } from './account/account-routes';
import { adminRoutes } from './admin/admin-routes';
import type { AppDeps } from './app-deps';
import { AUTH_PATH, authRouteDocs, authRoutes } from './auth/auth-routes';
import { requireApiKey } from './auth/require-api-key';
import { chainRouteDocs, chainRoutes } from './chain/chain-routes';
import { composeServices } from './compose';
import { dashboardApi } from './dashboard-api';
import { errorHandler, notFoundHandler } from './errors/error-handler';
import { HEALTH_PATH, healthRouteDocs, healthRoutes } from './health/health-routes';
import { probeRoutes } from './health/probe-routes';
import { servingOnly } from './health/serving-only';
import { rejectControlCharacters, rejectMalformedUrl } from './http/input-guard';
import { jsonBody } from './http/json-body';
import { requestLogger } from './http/request-logger';
import { idempotency, idempotentRefusals } from './idempotency/idempotency';
import { BATCH_PATH, invoiceBatchRouteDocs, invoiceBatchRoutes } from './invoices/invoice-batch-routes';
import { invoiceResendRouteDocs, invoiceResendRoutes } from './invoices/invoice-resend-routes';
import { invoiceRouteDocs, invoiceRoutes, registrationChecksItsKey } from './invoices/invoice-routes';
import { lazyDashboard } from './lazy-dashboard';
import { recordVerificationRouteDocs, recordVerificationRoutes } from './verification/record-verification-routes';
import { requestMetrics } from './metrics/request-metrics';
import { buildOpenApiDocument } from './openapi/build-openapi-document';
import { docsRoutes } from './openapi/docs-routes';
import { OPENAPI_PATH, openApiRouteDocs, openApiRoutes } from './openapi/openapi-routes';
import type { RouteDoc } from './openapi/route-doc';
import { qrRouteDocs, qrRoutes } from './qr/qr-routes';
import { loadOnce } from './shared/load-once';
import { systemRouteDocs, systemRoutes } from './systems/system-routes';
import { taxpayerRouteDocs, taxpayerRoutes } from './taxpayers/taxpayer-routes';
import { eventLogRouteDocs, eventLogRoutes } from './operating-mode/event-log-routes';
import { integrityCheckRouteDocs, integrityCheckRoutes } from './operating-mode/integrity-check-routes';
import { periodExportRouteDocs, periodExportRoutes } from './operating-mode/period-export-routes';
import { taxIdCheckRouteDocs, taxIdCheckRoutes } from './tax-ids/tax-id-check-routes';
import { remissionRouteDocs, remissionRoutes } from './remissions/remission-routes';
import { taxIdListRouteDocs, taxIdListRoutes } from './tax-ids/tax-id-list-routes';
import { webhookRouteDocs, webhookRoutes } from './webhooks/webhook-routes';
import { sandboxRouteDocs, sandboxRoutes } from './sandbox/sandbox-routes';

export const API_PREFIX = '/api/v1';

/**
 * Every operation of /api/v1, as each feature declares it beside its handlers: a router mounted below adds its
 * docs here (the contract test checks), and the OpenAPI document is assembled from this list alone.
 */
export const apiRouteDocs: RouteDoc[] = [
  ...healthRouteDocs,
  ...openApiRouteDocs,
  ...authRouteDocs,
  ...accountRouteDocs,
  ...taxpayerRouteDocs,
  ...eventLogRouteDocs,
  ...integrityCheckRouteDocs,
  ...periodExportRouteDocs,
  ...systemRouteDocs,
  ...invoiceRouteDocs,
  ...recordVerificationRouteDocs,
  ...invoiceBatchRouteDocs,
  ...invoiceResendRouteDocs,
  ...chainRouteDocs,
  ...qrRouteDocs,
  ...webhookRouteDocs,
  ...taxIdCheckRouteDocs,
  ...sandboxRouteDocs,
  ...remissionRouteDocs,
  ...taxIdListRouteDocs,
];

/** The OpenAPI document GET /api/v1/openapi.json serves (the generated clients are made from it). */
export const apiDocument = () => buildOpenApiDocument(apiRouteDocs, { version: '1.0.0' });

/** Readiness for an app built without one (tests, in-process stacks): serving from the start. */
function servingReadiness(deps: AppDeps): Readiness {
  const readiness = new Readiness(
    inspectDependencies({
      schema: () => schemaStatus(deps.db.$client),
      redis: () => pingRedis(deps.redis),
      redisRequired: false,
      timeoutMs: deps.healthTimeoutMs ?? 2_000,
    }),
  );
  readiness.serving();
  return readiness;
}

export function createApp(deps: AppDeps): Express {
  const readiness = deps.readiness ?? servingReadiness(deps);
  const services = composeServices(deps);
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  // Weak ETags hash every JSON answer, and no client revalidates an API answer; static assets set their own.
  app.set('etag', false);
  // Behind a TLS proxy this makes req.secure (Secure cookies) and req.ip (rate limits) reflect the client.
  app.set('trust proxy', deps.config.trustProxy ?? false);

  for (const [path, probe] of probeRoutes(readiness)) app.use(path, probe);
  app.use(requestMetrics());
  app.use(requestLogger(deps.logger), rejectMalformedUrl);
  // Operators only; without configured credentials the board and the metrics do not exist at all. With ADMIN_PORT
  // they are served by the admin listener instead (createAdminApp), never on the tenants' port.
  if (deps.config.admin && deps.config.adminPort === undefined) app.use(adminRoutes(deps, deps.config.admin));

  // Everything under /api/v1 in one router mounted once: Express rewrites and parses the URL again on entering and
  // leaving each layer mounted at a path, which every registration paid a dozen times (measured, docs/scaling.md).
  const api = Router();
  api.use(jsonBody, rejectControlCharacters);
  // The routers ahead of the registration route are mounted at their own paths: a request for another path passes
  // each on one test of its path instead of entering it (measured, docs/scaling.md).
  api.use(HEALTH_PATH, healthRoutes(services.health, readiness));
  api.use(servingOnly(readiness));
  // Built on its first request: most processes never serve it.
  const openApiDocument = loadOnce(apiDocument);
  api.use(OPENAPI_PATH, openApiRoutes(openApiDocument));
  api.use(AUTH_PATH, authRoutes(services.auth));
  api.use(
    // A registration alone checks its key in its chain read; under load the keys of many requests are looked up
    // together while a commit is in flight (measured, docs/scaling.md).
    requireApiKey(services.auth, { checkedByRoute: (req) => services.writer.idle() && registrationChecksItsKey(req) }),
    idempotency(services.idempotency),
  );
  // Registrations first: the busiest routes are matched before the others are tried. The batch route before
  // invoiceRoutes, whose /invoices/:id would otherwise answer POST /invoices/batch with 405.
  api.use(BATCH_PATH, invoiceBatchRoutes(services.registration, services.taxIdChecks));
  api.use(
    invoiceRoutes(
      services.registration,
      services.correction,
      services.invoices,
      services.cancellation,
      services.invoiceExport,
      services.checkedRegistration,
    ),
    recordVerificationRoutes(services.recordVerification),
    accountRoutes(services.account),
    taxpayerRoutes(services.taxpayers, services.clock),
    eventLogRoutes(services.eventLog),
    integrityCheckRoutes(services.integrityChecks),
    periodExportRoutes(services.periodExports),
    systemRoutes(services.systems),
    invoiceResendRoutes(services.resend),
    chainRoutes(services.chain, services.chainVerification),
    qrRoutes(services.qr),
    webhookRoutes(services.webhooks),
    taxIdCheckRoutes(services.taxIdChecks),
    sandboxRoutes(),
    remissionRoutes(services.remissions),
    taxIdListRoutes(services.taxIdLists),
    idempotentRefusals(),
  );
  app.use(API_PREFIX, api);
  // The pages below (docs, dashboard) wait for the database as the API does.
  app.use(servingOnly(readiness));
  app.use(docsRoutes());
  // The tenant dashboard (HTML pages at /, /login, /signup, /app/...), handed the same services.
  app.use(lazyDashboard(dashboardApi(services)));

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
