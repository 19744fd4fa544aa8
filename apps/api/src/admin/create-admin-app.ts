import express, { type Express } from 'express';
import type { AppDeps } from '../app-deps';
import { errorHandler, notFoundHandler } from '../errors/error-handler';
import { requestLogger } from '../http/request-logger';
import { adminRoutes } from './admin-routes';

/**
 * The admin listener (ADMIN_PORT): Bull Board and /metrics apart from the tenants' port, so that the network can
 * keep them private (a cluster-internal port, a firewall rule) as well as the credentials do.
 */
export function createAdminApp(deps: AppDeps & { config: { admin: NonNullable<AppDeps['config']['admin']> } }): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLogger(deps.logger));
  app.use(adminRoutes(deps, deps.config.admin));
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
