import express, { type Express } from 'express';
import { METRICS_PATH } from '@vf/metrics';
import { accountRoutes } from './account/account-routes';
import { basicAuth } from './admin/basic-auth';
import { QUEUE_BOARD_PATH, queueBoard } from './admin/queue-board';
import type { AppDeps } from './app-deps';
import { authRoutes } from './auth/auth-routes';
import { requireApiKey } from './auth/require-api-key';
import { chainRoutes } from './chain/chain-routes';
import { composeServices } from './compose';
import { createDashboard } from './dashboard/create-dashboard';
import { errorHandler, notFoundHandler } from './errors/error-handler';
import { healthRoutes } from './health/health-routes';
import { rejectControlCharacters, rejectMalformedUrl } from './http/input-guard';
import { jsonBody } from './http/json-body';
import { requestLogger } from './http/request-logger';
import { idempotency } from './idempotency/idempotency';
import { invoiceBatchRoutes } from './invoices/invoice-batch-routes';
import { invoiceResendRoutes } from './invoices/invoice-resend-routes';
import { invoiceRoutes } from './invoices/invoice-routes';
import { recordVerificationRoutes } from './verification/record-verification-routes';
import { metricsRoutes } from './metrics/metrics-routes';
import { requestMetrics } from './metrics/request-metrics';
import { apiRouteDocs } from './openapi/api-route-docs';
import { buildOpenApiDocument } from './openapi/build-openapi-document';
import { docsRoutes } from './openapi/docs-routes';
import { openApiRoutes } from './openapi/openapi-routes';
import { qrRoutes } from './qr/qr-routes';
import { loadOnce } from './shared/load-once';
import { systemRoutes } from './systems/system-routes';
import { taxpayerRoutes } from './taxpayers/taxpayer-routes';
import { webhookRoutes } from './webhooks/webhook-routes';

export const API_PREFIX = '/api/v1';

export function createApp(deps: AppDeps): Express {
  const services = composeServices(deps);
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  // Weak ETags hash every JSON answer, and no client revalidates an API answer; static assets set their own.
  app.set('etag', false);
  // Behind a TLS proxy this makes req.secure (Secure cookies) and req.ip (rate limits) reflect the client.
  app.set('trust proxy', deps.config.trustProxy ?? false);

  app.use(requestMetrics());
  app.use(requestLogger(deps.logger), rejectMalformedUrl);
  // Operators only; without configured credentials the board and the metrics do not exist at all.
  if (deps.config.admin) app.use(QUEUE_BOARD_PATH, basicAuth(deps.config.admin, 'queues'), queueBoard(deps.queues));
  if (deps.config.admin) app.use(METRICS_PATH, basicAuth(deps.config.admin, 'metrics'), metricsRoutes(deps));

  app.use(API_PREFIX, jsonBody, rejectControlCharacters);
  // Built on its first request: most processes never serve it.
  const openApiDocument = loadOnce(() => buildOpenApiDocument(apiRouteDocs, { version: '1.0.0' }));
  app.use(API_PREFIX, healthRoutes(services.health), openApiRoutes(openApiDocument), authRoutes(services.auth));
  app.use(
    API_PREFIX,
    requireApiKey(services.auth),
    idempotency(services.idempotency),
    // Registrations first: the busiest routes are matched before the others are tried. The batch route before
    // invoiceRoutes, whose /invoices/:id would otherwise answer POST /invoices/batch with 405.
    invoiceBatchRoutes(services.registration),
    invoiceRoutes(services.registration, services.invoices, services.cancellation, services.invoiceExport),
    recordVerificationRoutes(services.recordVerification),
    accountRoutes(services.account),
    taxpayerRoutes(services.taxpayers, services.clock),
    systemRoutes(services.systems),
    invoiceResendRoutes(services.resend),
    chainRoutes(services.chain, services.chainVerification),
    qrRoutes(services.qr),
    webhookRoutes(services.webhooks),
  );
  app.use(docsRoutes());
  // The tenant dashboard (HTML pages at /, /login, /signup, /app/...), on the same services.
  app.use(createDashboard(services));

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
