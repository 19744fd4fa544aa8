import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postSoapEnvelope } from './soap-transport';

let server: Server;
let url: string;
let answer: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test('POSTs the envelope as it is, as SOAP over HTTP, and hands back the answer with its Date', async () => {
  answer = (req, body, res) => {
    res.setHeader('Date', 'Wed, 26 Nov 2026 08:00:00 GMT');
    res.end(
      JSON.stringify({ method: req.method, type: req.headers['content-type'], action: req.headers.soapaction, body: body.toString() }),
    );
  };
  const exchange = await postSoapEnvelope(url, '<x>ñ</x>', { timeoutMs: 5_000, soapAction: 'urn:op' });
  expect(exchange).toEqual({ kind: 'http', status: 200, body: expect.any(String), date: 'Wed, 26 Nov 2026 08:00:00 GMT' });
  expect(JSON.parse((exchange as { body: string }).body)).toEqual({
    method: 'POST',
    type: 'text/xml; charset=UTF-8',
    action: '"urn:op"',
    body: '<x>ñ</x>',
  });
});

test('a message of megabytes arrives byte for byte', async () => {
  answer = (req, body, res) => res.end(`${req.headers['content-length']} ${body.length} ${sha256(body)}`);
  const envelope = Buffer.alloc(5 * 1024 * 1024 + 123, 'record ');
  const exchange = await postSoapEnvelope(url, envelope, { timeoutMs: 10_000 });
  expect(exchange).toMatchObject({ kind: 'http', status: 200, body: `${envelope.length} ${envelope.length} ${sha256(envelope)}` });
});

test('an answer with an error status is kept with its text', async () => {
  answer = (_req, _body, res) => {
    res.statusCode = 500;
    res.end('<fault/>');
  };
  expect(await postSoapEnvelope(url, '<x/>', { timeoutMs: 5_000 })).toMatchObject({ kind: 'http', status: 500, body: '<fault/>' });
});

test('no answer in time, or a connection cut, is no answer', async () => {
  answer = () => undefined;
  expect(await postSoapEnvelope(url, '<x/>', { timeoutMs: 200 })).toEqual({
    kind: 'no_answer',
    error: 'ETIMEDOUT: no answer within 200 ms',
  });
  answer = (req) => req.socket.destroy();
  expect(await postSoapEnvelope(url, '<x/>', { timeoutMs: 5_000 })).toEqual({
    kind: 'no_answer',
    error: expect.stringMatching(/ECONNRESET|socket hang up/),
  });
});

test('an envelope in parts goes as one body, in order', async () => {
  answer = (req, body, res) => res.end(`${req.headers['content-length']} ${body.toString()}`);
  const parts = Array.from({ length: 3_000 }, (_, i) => Buffer.from(`<r>${i}</r>`));
  const exchange = await postSoapEnvelope(url, parts, { timeoutMs: 10_000 });
  const body = Buffer.concat(parts).toString();
  expect(exchange).toMatchObject({ kind: 'http', status: 200, body: `${Buffer.byteLength(body)} ${body}` });
});
