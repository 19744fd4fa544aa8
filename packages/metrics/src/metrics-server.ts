import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { operatorAuthorized, operatorChallenge, type OperatorCredentials } from './operator-auth';

export const METRICS_PATH = '/metrics';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export interface MetricsServerOptions {
  port: number;
  registry: Registry;
  credentials: OperatorCredentials;
  /** Called when rendering fails, so the process can log it; the scraper gets a 500. */
  onError?: (err: unknown) => void;
}

/**
 * A process's own `GET /metrics` listener, for processes without an HTTP server of their own (the workers).
 * Answers only the operator (the same Basic credentials as Bull Board); port 0 picks a free port (tests).
 */
export async function startMetricsServer({ port, registry, credentials, onError }: MetricsServerOptions): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
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
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // A scraper's keep-alive connection must not hold the process open at shutdown.
        server.closeIdleConnections();
      }),
  };
}
