import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createTestCa, issueCertificate } from '@vf/certificates/testing';
import { PrivateTinyproxy } from '@vf/private-servers';
import { postSoapEnvelope } from '../exchange/soap-transport';
import { authorityAgent, type EgressProxy } from './authority-agent';

const ca = createTestCa();
const serverCert = issueCertificate(ca, { commonName: 'authority', serverHosts: ['127.0.0.1'] });
const clientCert = issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: '89890001K' });
const tls = { key: clientCert.keyPem, cert: clientCert.certPem, ca: ca.certPem, keepAlive: true };

let server: Server;
let endpoint: string;
let proxy: PrivateTinyproxy;
let served = 0;
beforeAll(async () => {
  // Mutual TLS, as the authority: it answers with the subject of the client certificate it was shown.
  server = createServer(
    { key: serverCert.keyPem, cert: serverCert.certPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      served += 1;
      res.end(`client ${(req.socket as TLSSocket).getPeerCertificate().subject.CN}`);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `https://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
  proxy = await PrivateTinyproxy.start({ user: 'egress', password: 's3cret-tunnel' });
});
afterAll(async () => {
  await proxy?.destroy();
  await new Promise((resolve) => server.close(resolve));
});

async function post(egress: EgressProxy) {
  const agent = authorityAgent(tls, egress);
  try {
    return await postSoapEnvelope(endpoint, '<x/>', { agent, timeoutMs: 10_000 });
  } finally {
    agent.destroy();
  }
}

const connects = () =>
  proxy
    .log()
    .split('\n')
    .filter((l) => l.includes(`CONNECT 127.0.0.1:${new URL(endpoint).port}`)).length;

test('through the proxy, mutual TLS is end to end: the server sees the client certificate, the proxy a CONNECT', async () => {
  const before = connects();
  expect(await post({ url: proxy.url, noProxy: ['localhost'] })).toMatchObject({
    kind: 'http',
    status: 200,
    body: 'client CONTRIBUYENTE - 89890001K',
  });
  expect(connects()).toBe(before + 1);
});

test('without the right credentials the proxy refuses the tunnel, and nothing reaches the server', async () => {
  const wrong = proxy.url.replace('s3cret-tunnel', 'wrong');
  const before = served;
  // tinyproxy answers a wrong password with 401 (407 when none is given).
  expect(await post({ url: wrong, noProxy: [] })).toEqual({
    kind: 'no_answer',
    error: expect.stringMatching(/^the egress proxy refused the tunnel: HTTP 40[17] /),
  });
  expect(served).toBe(before);
});

test('a host NO_PROXY names is reached directly, without the proxy', async () => {
  const before = connects();
  expect(await post({ url: proxy.url, noProxy: ['127.0.0.1'] })).toMatchObject({ kind: 'http', body: 'client CONTRIBUYENTE - 89890001K' });
  expect(connects()).toBe(before);
});

test('a proxy that is gone is no answer, what the worker retries', async () => {
  await proxy.stop();
  try {
    expect(await post({ url: proxy.url, noProxy: [] })).toEqual({ kind: 'no_answer', error: expect.stringMatching(/ECONNREFUSED/) });
  } finally {
    await proxy.resume();
  }
});
