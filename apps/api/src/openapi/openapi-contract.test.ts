import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { madridToday } from '@vf/core';
import { API_PREFIX } from '../create-app';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { createSystem, invoiceBody, readyAccount, registerAccount, uniqueNif, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { openApiPath } from './build-openapi-document';
import { createResponseChecker, type ApiDocument as Document } from './testing/response-checker';

let t: TestApp;
let doc: Document;

beforeAll(async () => {
  t = await createTestApp();
  const res = await request(t.app).get('/api/v1/openapi.json').expect(200);
  doc = res.body;
});
afterAll(() => t.close());

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: string;
  matchers: ((path: string) => unknown)[];
}

/** Every (method, path) the app routes under /api/v1, read from Express's own router stack. */
function registeredRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods).filter((m) => m !== '_all'))
          // A router mounted at a route's own path (/api/v1/health) declares it as `/`.
          found.push(`${method} ${prefix}${layer.route.path === '/' && prefix ? '' : layer.route.path}`);
      } else if (layer.handle.stack) {
        // A mounted router: its mount path is the layer's own (e.g. /api/v1), or nothing when mounted at /.
        walk(layer.handle.stack, prefix + (typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : ''));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return [...new Set(found.filter((r) => r.split(' ')[1].startsWith(`${API_PREFIX}/`)))].sort();
}

function documentedRoutes(): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${API_PREFIX}${path}`))
    .sort();
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document by a maintained validator', () => {
    // The validator is an ES module: it runs in a plain Node process, fed the document on stdin.
    const script = `import { Validator } from '@seriousme/openapi-schema-validator';
      let text = ''; for await (const chunk of process.stdin) text += chunk;
      const v = new Validator(); const r = await v.validate(JSON.parse(text));
      process.stdout.write(JSON.stringify({ ...r, version: v.version }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      input: JSON.stringify(doc),
      cwd: __dirname,
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual({ valid: true, version: '3.1' });
  });

  it('describes every route the app registers under /api/v1, and nothing else', () => {
    const registered = registeredRoutes(t.app)
      .map((r) => r.replace(/:(\w+)/g, '{$1}'))
      .sort();
    expect(registered.length).toBeGreaterThan(20);
    expect(documentedRoutes()).toEqual(registered);
  });

  it('names every operation once, with a verb and its subject: the generated clients name their methods so', () => {
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => (op as { operationId?: string }).operationId));
    expect(
      ids.filter(
        (id) =>
          !/^(get|list|register|create|update|delete|correct|cancel|validate|classify|export|verify|resend|regenerate|test)[A-Z][A-Za-z]+$/.test(
            id ?? '',
          ),
      ),
    ).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is served without an API key and declares the bearer key for the rest', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect((doc as unknown as { components: { securitySchemes: unknown } }).components.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
  });

  it("documents classify's supply_type with its values", () => {
    const paths = doc.paths as unknown as Record<string, Record<string, { requestBody: unknown }>>;
    const classify = Object.keys(paths).find((path) => path.endsWith('/invoices/classify'))!;
    const operation = JSON.stringify(paths[classify].post.requestBody);
    const ref = /"\$ref":"#\/components\/schemas\/([^"]+)"/.exec(operation)?.[1];
    const components = (doc as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas;
    const body = ref ? JSON.stringify(components[ref]) : operation;
    expect(body).toMatch(/"supply_type":\{[^}]*"enum":\["goods","services",null\]/);
  });
});

describe('real answers match the document', () => {
  const captured: { operation: string; res: request.Response }[] = [];

  /** Calls the API and keeps the answer under its documented operation ("get /invoices/{id}"). */
  async function call(
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    url: string,
    auth?: TestAccount,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<request.Response> {
    let req = request(t.app)[method](`${API_PREFIX}${url}`).set(headers);
    if (auth) req = req.set(auth.auth);
    const res = body === undefined ? await req : await req.send(body as object);
    captured.push({ operation: `${method} ${openApiPath(path)}`, res });
    return res;
  }

  /** NO VERI*FACTU: a taxpayer signing with its own certificate, on a system that can work both ways. */
  async function noVerifactuOperations(account: TestAccount, missing: string) {
    const ca = createTestCa();
    const holder = issueCertificate(ca, { commonName: 'NVF', nif: '89890001K', notAfter: new Date(Date.now() + 400 * 86_400_000) });
    const certificate = {
      certificate_p12_base64: toPkcs12(holder, 'pw-contract', ca).toString('base64'),
      certificate_password: 'pw-contract',
    };
    const systemId = await createSystem(t.app, account, { only_supports_verifactu: false, installation_number: 'NVF-1' });
    const created = await request(t.app)
      .post(`${API_PREFIX}/taxpayers`)
      .set(account.auth)
      .send({ nif: uniqueNif(), name: 'Conservado SL', operating_mode: 'no_verifactu', ...certificate });
    const id = created.body.data.id as string;
    await request(t.app).post(`${API_PREFIX}/invoices`).set(account.auth).send(invoiceBody(id, systemId)).expect(201);
    const events = await call('get', '/taxpayers/:id/events', `/taxpayers/${id}/events`, account);
    await call('get', '/taxpayers/:id/events', `/taxpayers/${missing}/events`, account);
    const eventId = events.body.data[0].id as string;
    await call('get', '/taxpayers/:id/events/:eventId', `/taxpayers/${id}/events/${eventId}`, account);
    await call('get', '/taxpayers/:id/events/:eventId', `/taxpayers/${id}/events/${missing}`, account);
    await call('get', '/taxpayers/:id/events/:eventId/xml', `/taxpayers/${id}/events/${eventId}/xml`, account);
    await call('get', '/taxpayers/:id/events/:eventId/xml', `/taxpayers/${id}/events/${missing}/xml`, account);
    const other = { system_id: systemId, description: 'Cambio de la impresora de tickets' };
    await call('post', '/taxpayers/:id/events', `/taxpayers/${id}/events`, account, other);
    await call('post', '/taxpayers/:id/events', `/taxpayers/${id}/events`, account, { ...other, description: '' });
    await call('post', '/taxpayers/:id/checks', `/taxpayers/${id}/checks`, account, { subject: 'records' });
    await call('post', '/taxpayers/:id/checks', `/taxpayers/${id}/checks`, account, { subject: 'everything' });
    await call('get', '/taxpayers/:id/alarms', `/taxpayers/${id}/alarms`, account);
    await call('get', '/taxpayers/:id/alarms', `/taxpayers/${missing}/alarms`, account);
    const period = { from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 3_600_000).toISOString() };
    await call('post', '/taxpayers/:id/exports', `/taxpayers/${id}/exports`, account, { subject: 'records', ...period });
    await call('post', '/taxpayers/:id/exports', `/taxpayers/${id}/exports`, account, {
      subject: 'records',
      from: '2020-01-01T00:00:00Z',
      to: '2020-02-01T00:00:00Z',
    });
  }

  it('for a success and a problem of every operation', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const other = await registerAccount(t.app, 'Other');
    const missing = '00000000-0000-4000-8000-000000000000';
    const register = (extra: Record<string, unknown> = {}) =>
      call('post', '/invoices', '/invoices', account, invoiceBody(taxpayerId, systemId, extra));
    const settle = (id: string, status: string) => t.db.db.execute(sql`UPDATE invoices SET authority_status = ${status} WHERE id = ${id}`);

    await call('get', '/health', '/health');
    // A body that is not JSON: refused before any route, on every route.
    await call('get', '/health', '/health', undefined, 'not json');
    await call('get', '/openapi.json', '/openapi.json');
    await call('get', '/openapi.json', '/openapi.json', undefined, 'not json');

    await call('post', '/auth/register', '/auth/register', undefined, {
      name: 'Ana',
      email: 'ana-contract@example.test',
      password: 'a long password here',
    });
    await call('post', '/auth/register', '/auth/register', undefined, { name: 'Ana', email: 'not an email', password: 'short' });
    await call('post', '/auth/regenerate-key', '/auth/regenerate-key', other);
    await call('post', '/auth/regenerate-key', '/auth/regenerate-key', { ...other, auth: { Authorization: 'Bearer vf_not_a_key' } });

    await call('get', '/account', '/account', account);
    await call('get', '/account', '/account');
    await call('put', '/account/settings', '/account/settings', account, { recipient_check: null });
    await call('put', '/account/settings', '/account/settings', account, { recipient_check: 'always' });

    await call('get', '/taxpayers', '/taxpayers', account);
    await call('get', '/taxpayers', '/taxpayers?limit=0', account);
    const spare = await call('post', '/taxpayers', '/taxpayers', account, { nif: uniqueNif(), name: 'Spare' });
    await call('post', '/taxpayers', '/taxpayers', account, { nif: 'nope' });
    await call('get', '/taxpayers/:id', `/taxpayers/${taxpayerId}`, account);
    await call('get', '/taxpayers/:id', `/taxpayers/${missing}`, account);
    await call('put', '/taxpayers/:id', `/taxpayers/${spare.body.data.id}`, account, { name: 'Spare renamed' });
    await call('put', '/taxpayers/:id', `/taxpayers/${missing}`, account, { name: 'x' });
    await call('delete', '/taxpayers/:id', `/taxpayers/${spare.body.data.id}`, account);
    await call('delete', '/taxpayers/:id', `/taxpayers/${missing}`, account);

    await call('get', '/systems', '/systems', account);
    await call('get', '/systems', '/systems?cursor=zzz', account);
    const spareSystem = await call('post', '/systems', '/systems', account, {
      vendor_name: 'V SL',
      vendor_nif: 'B85905495',
      name: 'S',
      version: '1',
      installation_number: '2',
    });
    await call('post', '/systems', '/systems', account, {});
    await call('get', '/systems/:id', `/systems/${systemId}`, account);
    await call('get', '/systems/:id', `/systems/${missing}`, account);
    await call('put', '/systems/:id', `/systems/${spareSystem.body.data.id}`, account, { version: '2' });
    await call('put', '/systems/:id', `/systems/${missing}`, account, { version: '2' });
    await call('delete', '/systems/:id', `/systems/${spareSystem.body.data.id}`, account);
    await call('delete', '/systems/:id', `/systems/${systemId}`, other);

    await call('post', '/invoices/validate', '/invoices/validate', account, invoiceBody(taxpayerId, systemId));
    await call('post', '/invoices/validate', '/invoices/validate', account, invoiceBody(taxpayerId, systemId, { invoice_type: 'Z9' }));
    await call('post', '/invoices/classify', '/invoices/classify', account, { recipient_country: 'FR' });
    await call('post', '/invoices/classify', '/invoices/classify', account, { issuer_territory: 'mars' });
    await call('post', '/invoices/batch', '/invoices/batch', account, [invoiceBody(taxpayerId, systemId)]);
    await call('post', '/invoices/batch', '/invoices/batch', account, [
      invoiceBody(taxpayerId, systemId),
      invoiceBody(taxpayerId, systemId, { invoice_type: 'Z9' }),
    ]);
    await call('post', '/invoices/batch', '/invoices/batch', account, []);

    const first = await register({ recipient: { name: 'Foreign Ltd', country: 'US', id_type: '04', id: 'US123' } });
    const second = await register();
    const third = await register({ recipient: undefined, invoice_type: 'F2' });
    await call(
      'post',
      '/invoices',
      '/invoices',
      account,
      invoiceBody(taxpayerId, systemId, { invoice_number: first.body.data.invoice_number }),
    );
    const [a, b, c] = [first.body.data.id, second.body.data.id, third.body.data.id];

    await call('get', '/invoices', '/invoices?sort=invoice_number', account);
    await call('get', '/invoices', '/invoices?sort=total', account);
    await call('get', '/invoices/export', '/invoices/export?format=csv&decimal=comma', account);
    await call('get', '/invoices/export', '/invoices/export?format=pdf', account);
    await call('get', '/invoices/:id', `/invoices/${a}`, account);
    await call('get', '/invoices/:id', `/invoices/${a}`, other);

    await settle(a, 'accepted');
    await call(
      'put',
      '/invoices/:id',
      `/invoices/${a}`,
      account,
      invoiceBody(taxpayerId, systemId, { invoice_number: first.body.data.invoice_number, description: 'Corrected' }),
    );
    await call(
      'put',
      '/invoices/:id',
      `/invoices/${b}`,
      account,
      invoiceBody(taxpayerId, systemId, { invoice_number: second.body.data.invoice_number }),
    );
    await settle(c, 'accepted');
    await call('post', '/invoices/:id/cancel', `/invoices/${c}/cancel`, account, { reason: 'Issued by mistake' });
    await call('post', '/invoices/:id/cancel', `/invoices/${c}/cancel`, account, {});

    await call('get', '/invoices/:id/records/:recordId/xml', `/invoices/${a}/records/${a}/xml`, account);
    await call('get', '/invoices/:id/records/:recordId/xml', `/invoices/${a}/records/${missing}/xml`, account);
    await call('get', '/invoices/:id/records/:recordId/verification', `/invoices/${a}/records/${a}/verification`, account);
    await call('get', '/invoices/:id/records/:recordId/verification', `/invoices/${a}/records/${missing}/verification`, account);
    await call('get', '/invoices/:id/submissions', `/invoices/${a}/submissions`, account);
    await call('get', '/invoices/:id/submissions', `/invoices/${missing}/submissions`, account);
    await call('get', '/invoices/:id/qr', `/invoices/${b}/qr?format=svg`, account);
    await call('get', '/invoices/:id/qr', `/invoices/${b}/qr?format=bmp`, account);

    await settle(b, 'error');
    await call('post', '/invoices/:id/resend', `/invoices/${b}/resend`, account);
    await call('post', '/invoices/:id/resend', `/invoices/${a}/resend`, account);

    const hook = await call('post', '/webhooks', '/webhooks', account, {
      url: 'https://receiver.example.test/hooks',
      events: ['invoice.accepted'],
    });
    await call('post', '/webhooks', '/webhooks', account, { url: 'http://receiver.example.test/hooks', events: ['invoice.nothing'] });
    // No census in this app: an answer the deployment already holds is what a check can give.
    const checkedNif = uniqueNif();
    const nameDigest = createHash('sha256').update('EMPRESA SA').digest('hex');
    await t.db.db.execute(
      sql`INSERT INTO census_answers (nif, name_digest, detail, request_digest, checked_at) VALUES (${checkedNif}, ${nameDigest}, 'identified', ${nameDigest}, now())`,
    );
    await call('post', '/tax-ids/check', '/tax-ids/check', account, { tax_ids: [{ nif: checkedNif, name: 'Empresa, S.A.' }] });
    await call('post', '/tax-ids/check', '/tax-ids/check', account, { nif: 'nope', name: 'X' });
    await call('get', '/tax-ids/checks', '/tax-ids/checks', account);
    await call('get', '/tax-ids/checks', '/tax-ids/checks?limit=0', account);
    // A remission on request: the taxpayer's records kept signed, as in NO VERI*FACTU mode.
    await t.db.db.execute(
      sql`INSERT INTO signed_records (invoice_id, xml) SELECT id, '<sum1:RegistroAlta/>' FROM invoices WHERE taxpayer_id = ${taxpayerId} ON CONFLICT DO NOTHING`,
    );
    const remissions = `/taxpayers/${taxpayerId}/remissions`;
    const period = { from: '2000-01-01', to: madridToday() };
    const remission = await call('post', '/taxpayers/:id/remissions', remissions, account, { requirement_reference: 'REQ1', period });
    await call('post', '/taxpayers/:id/remissions', remissions, account, { requirement_reference: 'REQ-1', period });
    await call('get', '/taxpayers/:id/remissions', remissions, account);
    await call('get', '/taxpayers/:id/remissions', `/taxpayers/${missing}/remissions`, account);
    await call('get', '/taxpayers/:id/remissions/:remissionId', `${remissions}/${remission.body.data.id}`, account);
    await call('get', '/taxpayers/:id/remissions/:remissionId', `${remissions}/${missing}`, account);
    // No worker here: the list stays pending, its rows without answers.
    const list = await call('post', '/tax-ids/lists', '/tax-ids/lists', account, {
      tax_ids: [{ nif: checkedNif, name: 'X' }, { vat_number: 'DE100' }],
    });
    await call('post', '/tax-ids/lists', '/tax-ids/lists', account, { tax_ids: [] });
    await call('get', '/tax-ids/lists/:id', `/tax-ids/lists/${list.body.data.id}`, account);
    await call('get', '/tax-ids/lists/:id', `/tax-ids/lists/${missing}`, account);
    await call('get', '/tax-ids/lists/:id/results', `/tax-ids/lists/${list.body.data.id}/results?limit=1`, account);
    await call('get', '/tax-ids/lists/:id/results', `/tax-ids/lists/${missing}/results`, account);
    await call('get', '/tax-ids/lists/:id/results.csv', `/tax-ids/lists/${list.body.data.id}/results.csv`, account);
    await call('get', '/tax-ids/lists/:id/results.csv', `/tax-ids/lists/${missing}/results.csv`, account);
    await call('get', '/webhooks', '/webhooks', account);
    await call('get', '/webhooks', '/webhooks');
    await call('get', '/webhooks/:id', `/webhooks/${hook.body.data.id}`, account);
    await call('get', '/webhooks/:id', `/webhooks/${missing}`, account);
    await call('post', '/webhooks/:id/test', `/webhooks/${hook.body.data.id}/test`, account);
    await call('post', '/webhooks/:id/test', `/webhooks/${missing}/test`, account);
    await call('get', '/webhooks/:id/deliveries', `/webhooks/${hook.body.data.id}/deliveries`, account);
    await call('get', '/webhooks/:id/deliveries', `/webhooks/${hook.body.data.id}/deliveries?limit=0`, account);
    await call('delete', '/webhooks/:id', `/webhooks/${hook.body.data.id}`, account);
    await call('delete', '/webhooks/:id', `/webhooks/${hook.body.data.id}`, account);

    // Idempotency: a replay is the first answer again; the same key for another body, or a malformed key, a problem.
    const once = { 'Idempotency-Key': 'contract-replay-1' };
    const replayBody = invoiceBody(taxpayerId, systemId);
    const original = await call('post', '/invoices', '/invoices', account, replayBody, once);
    const replay = await call('post', '/invoices', '/invoices', account, replayBody, once);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(original.body);
    expect((await call('post', '/invoices', '/invoices', account, invoiceBody(taxpayerId, systemId), once)).body.code).toBe(
      'idempotency_key_reused',
    );
    expect((await call('post', '/systems', '/systems', account, {}, { 'Idempotency-Key': 'tab\there' })).body.code).toBe(
      'idempotency_key_invalid',
    );

    await call('get', '/sandbox/scenarios', '/sandbox/scenarios', account);
    await call('get', '/sandbox/scenarios', '/sandbox/scenarios');
    const scenario = { 'Sandbox-Scenario': 'rejected:1100' };
    const rehearsed = await call('post', '/invoices', '/invoices', account, invoiceBody(taxpayerId, systemId), scenario);
    await call('get', '/invoices/:id', `/invoices/${rehearsed.body.data.id}`, account);
    await call('post', '/invoices', '/invoices', account, invoiceBody(taxpayerId, systemId), { 'Sandbox-Scenario': 'rejected:4104' });

    const nif = (await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}`).set(account.auth)).body.data.nif;
    await call('get', '/chain/:nif', `/chain/${nif}`, account);
    await call('get', '/chain/:nif', `/chain/${nif}`, other);
    await call('get', '/chain/:nif/verification', `/chain/${nif}/verification?from=1`, account);
    await call('get', '/chain/:nif/verification', `/chain/${nif}/verification`, other);

    await noVerifactuOperations(account, missing);

    const check = createResponseChecker(doc);
    const problems = captured.map((c) => check(c.operation, c.res)).filter(Boolean);
    expect(problems).toEqual([]);

    // Every documented operation was seen answering both ways.
    const seen = (ok: boolean) => new Set(captured.filter((c) => c.res.status < 400 === ok).map((c) => c.operation));
    const operations = documentedRoutes().map((r) => r.replace(API_PREFIX, ''));
    expect(operations.filter((op) => !seen(true).has(op))).toEqual([]);
    expect(operations.filter((op) => !seen(false).has(op))).toEqual([]);
  });
});
