import type { RequestHandler } from 'express';
import type { DashboardApi } from '@vf/dashboard';
import { loadOnce } from './shared/load-once';

/**
 * The tenant dashboard, built on the first request that reaches it. Its pages, templates, translations and form
 * parsing (about a megabyte of live heap) stay out of API processes that only register invoices: V8 lets the heap
 * grow to a multiple of what stays live, so every megabyte kept out of it is several off the process's peak RSS.
 */
export function lazyDashboard(api: DashboardApi): RequestHandler {
  const dashboard = loadOnce(async () => (await import('@vf/dashboard')).createDashboard(api));
  return (req, res, next) => {
    dashboard().then((router) => router(req, res, next), next);
  };
}
