import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LIVE_PATH, probeAnswer, READY_PATH, type Readiness } from '@vf/lifecycle';
import { METRICS_PATH, metricsHandler, type MetricsHandlerOptions } from '@vf/metrics';

export interface WorkerListener {
  port: number;
  close(): Promise<void>;
}

function answerProbe(req: IncomingMessage, res: ServerResponse, readiness: Readiness, path: typeof LIVE_PATH | typeof READY_PATH): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed');
    return;
  }
  void probeAnswer(readiness, path).then(({ status, body }) =>
    res
      .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(req.method === 'HEAD' ? undefined : JSON.stringify(body)),
  );
}

/**
 * A worker process's own listener (WORKER_PORT): `/health/live` and `/health/ready` for probes, without credentials,
 * and `/metrics` for the operator when admin credentials are set. Opened first, so that a worker waiting for
 * PostgreSQL or Redis is seen alive (and not ready). Port 0 picks a free port (tests).
 */
export async function startWorkerListener(opts: {
  port: number;
  readiness: Readiness;
  metrics?: MetricsHandlerOptions;
}): Promise<WorkerListener> {
  const metrics = opts.metrics && metricsHandler(opts.metrics);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === LIVE_PATH || path === READY_PATH) answerProbe(req, res, opts.readiness, path);
    else if (path === METRICS_PATH && metrics) metrics(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, () => {
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
