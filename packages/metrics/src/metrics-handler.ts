import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { operatorAuthorized, operatorChallenge, type OperatorCredentials } from './operator-auth';

export const METRICS_PATH = '/metrics';

export interface MetricsHandlerOptions {
  registry: Registry;
  credentials: OperatorCredentials;
  /** Called when rendering fails, so the process can log it; the scraper gets a 500. */
  onError?: (err: unknown) => void;
}

/**
 * `GET /metrics` for a process's own listener without Express (the workers'): the registry in Prometheus' text
 * format, to the operator only (the same Basic credentials as Bull Board).
 */
export function metricsHandler({
  registry,
  credentials,
  onError,
}: MetricsHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (!operatorAuthorized(req.headers.authorization, credentials)) {
      res.writeHead(401, { 'www-authenticate': operatorChallenge('metrics'), 'content-type': 'text/plain' }).end('Authentication required');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
      (err: unknown) => {
        onError?.(err);
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics unavailable');
      },
    );
  };
}
