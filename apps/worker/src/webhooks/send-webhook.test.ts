import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllowedHosts, type ResolvedAddress } from '@vf/webhook-destination';
import { sendWebhook, type OutgoingWebhook } from './send-webhook';

// Receivers on this machine: 127.0.0.1 and 127.0.0.2 are both loopback, but a server bound to one hears nothing sent
// to the other, so each can tell whether a delivery reached it.
interface Receiver {
  server: Server;
  port: number;
  connections: number;
  requests: string[];
}

const receivers: Receiver[] = [];

async function receiver(
  host: string,
  port = 0,
  answer: (r: Receiver) => [number, Record<string, string>?] = () => [204],
): Promise<Receiver> {
  const r = { connections: 0, requests: [] } as unknown as Receiver;
  r.server = createServer((req, res) => {
    r.requests.push(`${req.method} ${req.url} ${req.headers.host}`);
    const [status, headers] = answer(r);
    res.writeHead(status, headers).end();
  });
  r.server.on('connection', () => r.connections++);
  await new Promise<void>((resolve) => r.server.listen(port, host, resolve));
  r.port = (r.server.address() as AddressInfo).port;
  receivers.push(r);
  return r;
}

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => new Promise((resolve) => r.server.close(resolve))));
});

const message = (url: string): OutgoingWebhook => ({
  id: 'msg_1',
  url,
  secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
  payload: '{"type":"webhook.test"}',
});
const answering = (...answers: string[]) => {
  const calls: string[] = [];
  const resolve = async (name: string): Promise<ResolvedAddress[]> => {
    calls.push(name);
    return [{ address: answers[Math.min(calls.length, answers.length) - 1], family: 4 }];
  };
  return { calls, resolve };
};

test('a receiver whose name resolves to an internal address is never connected to, unless the operator allowed it', async () => {
  const r = await receiver('127.0.0.1');
  const url = `http://receiver.example.test:${r.port}/hook`;
  const refused = await sendWebhook(message(url), {
    timeoutMs: 5_000,
    destinations: { allowed: parseAllowedHosts([]), resolve: answering('127.0.0.1').resolve },
  });
  expect(refused).toEqual({
    ok: false,
    responseCode: null,
    error: expect.stringMatching(/^destination refused: .*loopback address \(127\.0\.0\.1\)/),
  });
  expect(r.connections).toBe(0);

  const allowed = await sendWebhook(message(url), {
    timeoutMs: 5_000,
    destinations: { allowed: parseAllowedHosts(['127.0.0.0/8']), resolve: answering('127.0.0.1').resolve },
  });
  expect(allowed).toEqual({ ok: true, responseCode: 204, error: null });
  expect(r.requests).toEqual([`POST /hook receiver.example.test:${r.port}`]);
});

test('the connection goes to the address that was checked: a name answering otherwise a moment later is not asked again', async () => {
  const checked = await receiver('127.0.0.1');
  const rebound = await receiver('127.0.0.2', checked.port);
  const dns = answering('127.0.0.1', '127.0.0.2');
  const result = await sendWebhook(message(`http://rebinding.example.test:${checked.port}/hook`), {
    timeoutMs: 5_000,
    destinations: { allowed: parseAllowedHosts(['127.0.0.1']), resolve: dns.resolve },
  });
  expect(result.ok).toBe(true);
  expect(dns.calls).toEqual(['rebinding.example.test']);
  expect(checked.requests).toHaveLength(1);
  expect(rebound.connections).toBe(0);
});

test('a redirect is a failed attempt, never followed', async () => {
  const target = await receiver('127.0.0.1');
  const redirecting = await receiver('127.0.0.1', 0, () => [307, { location: `http://127.0.0.1:${target.port}/elsewhere` }]);
  const result = await sendWebhook(message(`http://127.0.0.1:${redirecting.port}/hook`), {
    timeoutMs: 5_000,
    destinations: { allowed: parseAllowedHosts(['127.0.0.1']) },
  });
  expect(result).toEqual({ ok: false, responseCode: 307, error: 'HTTP 307' });
  expect(redirecting.requests).toHaveLength(1);
  expect(target.connections).toBe(0);
});
