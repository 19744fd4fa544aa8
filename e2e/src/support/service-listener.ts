import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server on 127.0.0.1 (an app, a proxy, a receiver) and how to stop it. */
export interface Listening {
  url: string;
  close(): Promise<void>;
}

export async function listen(handler: http.RequestListener): Promise<Listening> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const readBody = (req: http.IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

/**
 * A proxy in front of `target` that loses the answer of the first request `drop` picks: it forwards it (the service
 * does the work) and answers the client 503 instead. Records the Idempotency-Key of every request `drop` picks.
 */
export async function lossyProxy(target: string, drop: (req: http.IncomingMessage) => boolean) {
  const keys: string[] = [];
  let dropped = false;
  const proxy = await listen(async (req, res) => {
    const body = await readBody(req);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name)),
    ) as Record<string, string>;
    const picked = drop(req);
    if (picked) keys.push(headers['idempotency-key']);
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: body || undefined });
    const text = await answer.text();
    if (picked && !dropped) {
      dropped = true;
      res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '0' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Unavailable', status: 503, detail: 'injected', code: 'service_unavailable' }));
      return;
    }
    const passed = ['content-type', 'location', 'idempotent-replayed'].flatMap((h) => {
      const value = answer.headers.get(h);
      return value ? [[h, value] as const] : [];
    });
    res.writeHead(answer.status, Object.fromEntries(passed));
    res.end(text);
  });
  return { ...proxy, keys };
}
