import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { invoiceBody } from '@vf/api/testing';
import { waitUntil } from '@vf/core/testing';
import { VerifactuClient, VerifactuError, verifyWebhook, type InvoiceRequest } from 'verifactu-client';
import { obliterateWebhookQueue } from '../support/webhook-receiver';
import { listen, lossyProxy, readBody, type Listening } from '../support/service-listener';
import { loadInWebRuntime } from '../support/web-runtime';
import { WorkerTestEnv } from '../support/worker-test-env';

// The published client (clients/typescript) against the real service: the API listening on a port, a worker and the
// authority simulator. The CLI runs from its compiled build (npm run build).
const CLI = path.resolve(__dirname, '../../../clients/typescript/cjs/cli/main.js');
const run = promisify(execFile);

let env: WorkerTestEnv;
let api: Listening;
let client: VerifactuClient;
let taxpayer: { id: string; nif: string };
let invoice: (overrides?: Record<string, unknown>) => InvoiceRequest;
let apiKey: string;
const closing: Listening[] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'vf-client-'));

beforeAll(async () => {
  env = await WorkerTestEnv.create({ env: { WEBHOOK_RETRY_DELAYS_MS: '200,300', WEBHOOK_SWEEP_INTERVAL_MS: '200' } });
  await env.startWorker();
  api = await listen(env.api);
  const party = await env.party();
  taxpayer = await env.taxpayer(party, { certificate: 'own' });
  apiKey = party.account.apiKey;
  invoice = (overrides = {}) => invoiceBody(taxpayer.id, party.systemId, overrides) as InvoiceRequest;
  client = new VerifactuClient({ baseUrl: api.url, apiKey, retry: { baseDelayMs: 50 } });
});
afterAll(async () => {
  for (const server of closing) await server.close();
  await api?.close();
  await env?.close();
  if (env) await obliterateWebhookQueue(env.env.REDIS_URL, env.env.QUEUE_PREFIX);
  rmSync(dir, { recursive: true, force: true });
});

test('registers an invoice, waits for accepted, then corrects and cancels it, each accepted', async () => {
  const body = invoice();
  const registered = await client.registerInvoice(body);
  expect((await client.waitForFinalStatus(registered.id, { intervalMs: 200 })).authority_status).toBe('accepted');

  const correction = await client.correctInvoice(registered.id, { ...body, description: 'Corrected description' });
  expect(correction.record_type).toBe('correction');
  const corrected = await client.waitForFinalStatus(registered.id, { intervalMs: 200 });
  expect({ status: corrected.authority_status, description: corrected.description }).toEqual({
    status: 'accepted',
    description: 'Corrected description',
  });

  await client.cancelInvoice(registered.id, 'Issued by mistake');
  const cancelled = await client.waitForFinalStatus(registered.id, { intervalMs: 200 });
  expect({ status: cancelled.authority_status, cancelled: cancelled.cancelled }).toEqual({ status: 'accepted', cancelled: true });
});

test('rehearses a rejection under a sandbox scenario, as the catalogue it lists says it ends', async () => {
  const rejected = (await client.sandboxScenarios()).find((s) => s.name === 'rejected')!;
  const registered = await client.registerInvoice(invoice(), { sandboxScenario: rejected.example });
  const settled = await client.waitForFinalStatus(registered.id, { intervalMs: 200 });
  expect([settled.authority_status, settled.authority_code, settled.sandbox_scenario]).toEqual([
    rejected.expect.final_status,
    rejected.expect.authority_code,
    'rejected:1100',
  ]);
  await expect(client.registerInvoice(invoice(), { sandboxScenario: 'rejected:4104' })).rejects.toMatchObject({
    status: 400,
    code: 'invalid_sandbox_scenario',
  });
});

test('pages through the list and exports the same invoices as CSV', async () => {
  const numbers = ['LIST-1', 'LIST-2', 'LIST-3'];
  const results = await client.registerInvoices(numbers.map((n) => invoice({ invoice_number: n })));
  expect(results.map((r) => r.status)).toEqual([201, 201, 201]);

  const listed: string[] = [];
  for await (const row of client.invoices({ number_prefix: 'LIST-', limit: 2, sort: 'invoice_number' })) listed.push(row.invoice_number);
  expect(listed).toEqual(numbers);

  const csv = await client.exportInvoicesCsv({ number_prefix: 'LIST-', sort: 'invoice_number' });
  expect(
    csv
      .split('\r\n')
      .filter((line) => line.startsWith('LIST-'))
      .map((line) => line.split(';')[0]),
  ).toEqual(numbers);
});

test('a registration whose answer is lost to a 503 is retried with the same key and registered once', async () => {
  const proxy = await lossyProxy(api.url, (req) => req.method === 'POST' && req.url === '/api/v1/invoices');
  closing.push(proxy);
  const viaProxy = new VerifactuClient({ baseUrl: proxy.url, apiKey, retry: { baseDelayMs: 50 } });
  const registered = await viaProxy.registerInvoice(invoice({ invoice_number: 'LOST-ANSWER-1' }));

  expect(proxy.keys).toHaveLength(2);
  expect(proxy.keys[1]).toBe(proxy.keys[0]);
  const page = await client.listInvoices({ number_prefix: 'LOST-ANSWER-' });
  expect(page.data.map((row) => row.id)).toEqual([registered.id]);
});

test("a 422 is thrown with the problem's code, detail and field errors", async () => {
  const refused = await client.registerInvoice(invoice({ invoice_date: '2026-02-30', invoice_type: 'F9' })).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(VerifactuError);
  const error = refused as VerifactuError;
  expect({ status: error.status, code: error.code }).toEqual({ status: 422, code: 'validation_failed' });
  expect(error.detail).toEqual(expect.any(String));
  expect(error.errors.map((e) => e.field)).toEqual(expect.arrayContaining(['invoice_date', 'invoice_type']));
});

test('verifies a webhook the service delivers, and refuses it once the body is changed', async () => {
  const deliveries: { body: string; headers: Record<string, string | string[] | undefined> }[] = [];
  const receiver = await listen(async (req, res) => {
    deliveries.push({ body: await readBody(req), headers: req.headers });
    res.writeHead(204).end();
  });
  closing.push(receiver);
  const { data } = await client.api.POST('/webhooks', { body: { url: `${receiver.url}/hooks`, events: ['invoice.accepted'] } });
  const registered = await client.registerInvoice(invoice());

  // Earlier tests' invoices may be accepted after the subscription too: the one registered here is waited for.
  const delivery = await waitUntil(
    async () => deliveries.find((d) => (JSON.parse(d.body) as { data: { invoice_id: string } }).data.invoice_id === registered.id),
    'the webhook delivery of the invoice',
    60_000,
  );
  const event = verifyWebhook(data!.data.secret, delivery.body, delivery.headers);
  expect({ type: event.type, invoice: event.data.invoice_id }).toEqual({ type: 'invoice.accepted', invoice: registered.id });
  expect(() => verifyWebhook(data!.data.secret, delivery.body.replace('accepted', 'rejected'), delivery.headers)).toThrow();
});

test('the library runs with only the web platform (no Node built-in, process nor Buffer), as in Deno, Bun or a browser', async () => {
  const library = loadInWebRuntime(
    path.resolve(__dirname, '../../../clients/typescript/cjs/index.js'),
  ) as unknown as typeof import('verifactu-client');
  const webClient = new library.VerifactuClient({ baseUrl: api.url, apiKey, retry: { baseDelayMs: 50 } });
  const registered = await webClient.registerInvoice(invoice({ invoice_number: 'WEB-1' }));
  expect((await webClient.waitForFinalStatus(registered.id, { intervalMs: 200 })).authority_status).toBe('accepted');
  const refused = await webClient.getInvoice('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
  expect(refused).toMatchObject({ name: 'VerifactuError', status: 404 });

  // A delivery signed as Standard Webhooks says: base64 HMAC-SHA256 of "id.timestamp.body" under the secret's bytes.
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const [id, timestamp, body] = ['msg_1', String(Math.floor(Date.now() / 1000)), '{"type":"invoice.accepted","data":{}}'];
  const signature = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  const headers = { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
  expect(library.verifyWebhook(secret, body, headers).type).toBe('invoice.accepted');
  expect(() => library.verifyWebhook(secret, body.replace('accepted', 'rejected'), headers)).toThrow();
});

test('the verifactu command registers a JSON file (refusing its invalid invoice), shows a status, lists and exports', async () => {
  const file = path.join(dir, 'invoices.json');
  const invalid = invoice({ invoice_number: 'CLI-3', invoice_date: '2026-02-30' });
  writeFileSync(file, JSON.stringify([invoice({ invoice_number: 'CLI-1' }), invoice({ invoice_number: 'CLI-2' }), invalid]));
  const options = ['--url', api.url, '--api-key', apiKey];

  // One refused invoice makes the command exit 1, after every invoice was sent.
  const registered = await run(process.execPath, [CLI, 'register', file, ...options]).then(
    () => {
      throw new Error('verifactu register exited 0 with an invalid invoice in the file');
    },
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
  expect(registered.code).toBe(1);
  const rows = registered.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { index: number; status: number; id?: string; code?: string });
  expect(rows.map((r) => [r.index, r.status, r.code])).toEqual([
    [0, 201, undefined],
    [1, 201, undefined],
    [2, 422, 'validation_failed'],
  ]);
  expect(registered.stderr).toContain('3/3 sent, 2 registered, 1 refused');

  const status = await run(process.execPath, [CLI, 'status', rows[1].id!, '--wait', ...options]);
  expect(JSON.parse(status.stdout)).toEqual(
    expect.objectContaining({ id: rows[1].id, invoice_number: 'CLI-2', authority_status: 'accepted' }),
  );

  const listed = await run(process.execPath, [CLI, 'list', ...options]);
  const numbers = listed.stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { invoice_number: string }).invoice_number);
  expect(numbers).toEqual(expect.arrayContaining(['CLI-1', 'CLI-2']));
  expect(numbers).not.toContain('CLI-3');

  const csvFile = path.join(dir, 'export.csv');
  await run(process.execPath, [CLI, 'export', '--out', csvFile, ...options]);
  const exported = readFileSync(csvFile, 'utf8')
    .split('\r\n')
    .map((line) => line.split(';')[0]);
  expect(exported).toEqual(expect.arrayContaining(numbers));
});

/** An invoice as a CSV row's cells: nested fields under dotted columns (`recipient.nif`, `breakdown.0.base_amount`). */
function csvCells(value: unknown, prefix = ''): [string, string][] {
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, inner]) => csvCells(inner, prefix ? `${prefix}.${key}` : key));
  return [[prefix, String(value)]];
}

test('the verifactu command registers a CSV file in batches with its progress, and verifies the chain', async () => {
  const rows = ['CSV-1', 'CSV-2', 'CSV-3'].map((number) => csvCells(invoice({ invoice_number: number })));
  const quote = (cell: string) => (/[;"\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  const file = path.join(dir, 'invoices.csv');
  writeFileSync(
    file,
    [rows[0].map(([column]) => column), ...rows.map((row) => row.map(([, cell]) => quote(cell)))].map((r) => r.join(';')).join('\r\n'),
  );
  const options = ['--url', api.url, '--api-key', apiKey];

  const registered = await run(process.execPath, [CLI, 'register', file, '--batch-size', '2', ...options]);
  const results = registered.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { index: number; status: number; id: string });
  expect(results.map((r) => [r.index, r.status])).toEqual([
    [0, 201],
    [1, 201],
    [2, 201],
  ]);
  // One progress line per batch: two calls for three invoices.
  expect(registered.stderr.trim().split('\n')).toEqual(['2/3 sent, 2 registered, 0 refused', '3/3 sent, 3 registered, 0 refused']);
  const invoices = await Promise.all(results.map((r) => client.waitForFinalStatus(r.id, { intervalMs: 200 })));
  expect(invoices.map((i) => [i.invoice_number, i.authority_status])).toEqual([
    ['CSV-1', 'accepted'],
    ['CSV-2', 'accepted'],
    ['CSV-3', 'accepted'],
  ]);
  await expect(run(process.execPath, [CLI, 'register', file, '--batch-size', '1001', ...options])).rejects.toMatchObject({
    code: 1,
    stderr: expect.stringContaining('--batch-size must be a whole number from 1 to 1000'),
  });

  const verified = await run(process.execPath, [CLI, 'verify-chain', taxpayer.nif, ...options]);
  expect(JSON.parse(verified.stdout)).toEqual(expect.objectContaining({ valid: true }));
});

/** A stand-in for the authority's web server whose Date header is `offsetMs` away from the real time. */
async function authorityClock(offsetMs: number) {
  const server = await listen((_req, res) => {
    res.setHeader('Date', new Date(Date.now() + offsetMs).toUTCString());
    res.writeHead(200).end();
  });
  closing.push(server);
  return server.url;
}

test('verifactu doctor checks the service, the clocks against the authority, the key and the certificate, and says what fails', async () => {
  const options = ['--url', api.url, '--api-key', apiKey];
  const healthy = await run(process.execPath, [CLI, 'doctor', ...options, '--authority-url', await authorityClock(0)]);
  const lines = healthy.stdout.trim().split('\n');
  expect(lines.map((line) => line.split(':')[0])).toEqual([
    'ok   service',
    'ok   clock',
    'ok   service clock',
    'ok   api key',
    `ok   certificate ${taxpayer.nif}`,
  ]);
  expect(lines[4]).toMatch(/: valid \d{4}-\d\d-\d\dT[\d:.]+Z to \d{4}-\d\d-\d\dT[\d:.]+Z$/);

  // An authority ten minutes ahead: both this machine and the service are behind it.
  const skewed = await run(process.execPath, [CLI, 'doctor', ...options, '--authority-url', await authorityClock(600_000)]).catch(
    (e: { code: number; stdout: string }) => e,
  );
  expect(skewed).toEqual(expect.objectContaining({ code: 1 }));
  expect(skewed.stdout).toMatch(/^FAIL clock: this machine is -(599|600|601) s from the authority$/m);
  expect(skewed.stdout).toMatch(/^FAIL service clock: the service is -(599|600|601) s from the authority$/m);

  const refused = await run(process.execPath, [
    CLI,
    'doctor',
    '--url',
    api.url,
    '--api-key',
    'vfk_not-a-key',
    '--authority-url',
    await authorityClock(0),
  ]).catch((e: { code: number; stdout: string }) => e);
  expect(refused).toEqual(expect.objectContaining({ code: 1, stdout: expect.stringContaining('FAIL api key: unauthorized') }));
});
