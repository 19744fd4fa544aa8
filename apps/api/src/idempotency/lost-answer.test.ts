import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import request from 'supertest';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { madridToday } from '@vf/core';
import type { StoredResponse } from '@vf/db';
import { composeServices } from '../compose';
import { apiRouteDocs } from '../create-app';
import { problemAnswer } from '../errors/error-handler';
import { parseWith } from '../http/parse-with';
import { alreadyMade } from '../operating-mode/period-export-routes';
import { remissionCreateSchema } from '../remissions/remission-schemas';
import { systemCreateSchema, systemUpdateSchema } from '../systems/system-schemas';
import { taxIdListSchema } from '../tax-ids/tax-id-list-schemas';
import { taxpayerCreateSchema, taxpayerUpdateSchema } from '../taxpayers/taxpayer-schemas';
import { webhookCreateSchema } from '../webhooks/webhook-schemas';
import { createSystem, invoiceBody, readyAccount, registerAccount, uniqueNif, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { requestFingerprint, type IdempotencyHandle } from './idempotency-service';

// Every kind of idempotent write keeps its answer in the transaction of the write: an API process that commits and
// dies before its reply leaves the answer for the client's retry, which gets it back and writes nothing again.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const log = pino({ level: 'silent' });

/** The services of a second API process on the same database and queues: the one that dies before it answers. */
function servicesOfAnotherProcess() {
  return composeServices({
    db: t.db.db,
    redis: t.redis,
    queues: t.queues,
    logger: log,
    // No receiver's name resolves: a webhook's host is then left to each delivery's check.
    resolveHost: async (name) => Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' })),
    config: {
      masterKey: t.masterKey,
      certificateDir: t.certificateDir,
      admin: undefined,
      queuePrefix: t.queues.submission.opts.prefix!,
      passwordHashCost: 4,
    },
  });
}

const json = (status: number, body: unknown, location?: string): StoredResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...(location ? { location } : {}) },
  body: JSON.stringify(body),
});

/** What the dead process did first: authenticated the request and claimed its key. */
async function claimedByAnotherProcess(account: TestAccount, method: string, path: string, body: unknown, key = randomUUID()) {
  const services = servicesOfAnotherProcess();
  const accountRow = (await services.auth.authenticate(account.apiKey))!;
  const { result, handle } = await services.idempotency.claim(accountRow.id, key, requestFingerprint(method, path, body));
  expect(result.kind).toBe('claimed');
  return { services, accountRow, handle, key };
}

/** The client's retry with the same key: the answer the dead process committed, replayed. */
async function retry(account: TestAccount, method: 'post' | 'put', path: string, key: string, body: object, status: number) {
  const res = await request(t.app)[method](`/api/v1${path}`).set(account.auth).set('Idempotency-Key', key).send(body).expect(status);
  expect(res.headers['idempotent-replayed']).toBe('true');
  return res;
}

type Counted = 'computer_systems' | 'taxpayers' | 'webhook_endpoints' | 'webhook_deliveries' | 'tax_id_lists' | 'remissions';

async function count(table: Counted, accountId: string) {
  const where =
    table === 'webhook_deliveries'
      ? sql`endpoint_id IN (SELECT id FROM webhook_endpoints WHERE account_id = ${accountId})`
      : sql`account_id = ${accountId}`;
  const { rows } = await t.db.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${where}`);
  return rows[0].n;
}

/** A NO VERI*FACTU taxpayer with one record (signed as it was made) and the system that generated it. */
async function keptTaxpayer() {
  const ca = createTestCa();
  const holder = issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: '89890001K', notAfter: new Date(Date.now() + 400 * 86_400_000) });
  const account = await registerAccount(t.app);
  const systemId = await createSystem(t.app, account, { only_supports_verifactu: false });
  const certificate = {
    certificate_p12_base64: toPkcs12(holder, 'p12-Secret-Pass', ca).toString('base64'),
    certificate_password: 'p12-Secret-Pass',
  };
  const body = { nif: uniqueNif(), name: 'Contribuyente SL', ...certificate, operating_mode: 'no_verifactu' };
  const taxpayerId: string = (await request(t.app).post('/api/v1/taxpayers').set(account.auth).send(body).expect(201)).body.data.id;
  await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
  const events = async () =>
    (await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}/events`).set(account.auth).expect(200)).body.data.length;
  return { account, taxpayerId, systemId, events };
}

const systemBody = { vendor_name: 'V SL', vendor_nif: 'B85905495', name: 'S', version: '1', installation_number: '1' };

describe('a replay after a commit whose reply was lost returns the stored answer', () => {
  it('POST and PUT /systems', async () => {
    const account = await registerAccount(t.app);
    const created = await claimedByAnotherProcess(account, 'POST', '/api/v1/systems', systemBody);
    const system = await created.services.systems.create(created.accountRow.id, parseWith(systemCreateSchema, systemBody), (s) =>
      created.handle.seal(json(201, { data: { id: s.id } }, `/api/v1/systems/${s.id}`)),
    );
    const again = await retry(account, 'post', '/systems', created.key, systemBody, 201);
    expect(again.body.data.id).toBe(system.id);
    expect(again.headers.location).toBe(`/api/v1/systems/${system.id}`);
    expect(await count('computer_systems', created.accountRow.id)).toBe(1);

    const change = { version: '2' };
    const updated = await claimedByAnotherProcess(account, 'PUT', `/api/v1/systems/${system.id}`, change);
    await updated.services.systems.update(updated.accountRow.id, system.id, parseWith(systemUpdateSchema, change), (s) =>
      updated.handle.seal(json(200, { data: { version: s.version } })),
    );
    expect((await retry(account, 'put', `/systems/${system.id}`, updated.key, change, 200)).body.data.version).toBe('2');
  });

  it('POST and PUT /taxpayers: never 409 taxpayer_exists for its own write', async () => {
    const account = await registerAccount(t.app);
    const body = { nif: uniqueNif(), name: 'Empresa SL', is_production: false };
    const created = await claimedByAnotherProcess(account, 'POST', '/api/v1/taxpayers', body);
    const saved = await created.services.taxpayers.create(created.accountRow.id, parseWith(taxpayerCreateSchema, body), ({ taxpayer }) =>
      created.handle.seal(json(201, { data: { id: taxpayer.id } }, `/api/v1/taxpayers/${taxpayer.id}`)),
    );
    const again = await retry(account, 'post', '/taxpayers', created.key, body, 201);
    expect(again.body.data.id).toBe(saved.taxpayer.id);
    expect(await count('taxpayers', created.accountRow.id)).toBe(1);

    const change = { name: 'Empresa Nueva SL' };
    const updated = await claimedByAnotherProcess(account, 'PUT', `/api/v1/taxpayers/${saved.taxpayer.id}`, change);
    await updated.services.taxpayers.update(
      updated.accountRow.id,
      saved.taxpayer.id,
      parseWith(taxpayerUpdateSchema, change),
      ({ taxpayer }) => updated.handle.seal(json(200, { data: { name: taxpayer.name } })),
    );
    const put = await retry(account, 'put', `/taxpayers/${saved.taxpayer.id}`, updated.key, change, 200);
    expect(put.body.data.name).toBe('Empresa Nueva SL');
  });

  it('POST /webhooks (its secret shown again only to the retry) and POST /webhooks/{id}/test', async () => {
    const account = await registerAccount(t.app);
    const body = { url: 'https://hooks.invalid/verifactu', events: ['invoice.accepted'] };
    const created = await claimedByAnotherProcess(account, 'POST', '/api/v1/webhooks', body);
    const { endpoint, secret } = await created.services.webhooks.create(
      created.accountRow.id,
      parseWith(webhookCreateSchema, body),
      {},
      (w) => created.handle.seal(json(201, { data: { id: w.endpoint.id, secret: w.secret } }, `/api/v1/webhooks/${w.endpoint.id}`)),
    );
    const again = await retry(account, 'post', '/webhooks', created.key, body, 201);
    expect(again.body.data).toEqual({ id: endpoint.id, secret });
    expect(await count('webhook_endpoints', created.accountRow.id)).toBe(1);

    const tested = await claimedByAnotherProcess(account, 'POST', `/api/v1/webhooks/${endpoint.id}/test`, {});
    const delivery = await tested.services.webhooks.sendTest(tested.accountRow.id, endpoint.id, (d) =>
      tested.handle.seal(json(202, { data: { id: d.id } })),
    );
    expect((await retry(account, 'post', `/webhooks/${endpoint.id}/test`, tested.key, {}, 202)).body.data.id).toBe(delivery.id);
    expect(await count('webhook_deliveries', created.accountRow.id)).toBe(1);
  });

  it('POST /invoices/{id}/resend: never 409 not_resendable for its own resend', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const registered = await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
    const invoiceId: string = registered.body.data.id;
    await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'error' WHERE id = ${invoiceId}`);
    const resent = await claimedByAnotherProcess(account, 'POST', `/api/v1/invoices/${invoiceId}/resend`, {});
    await resent.services.resend.resend(resent.accountRow.id, invoiceId, log, (r) =>
      resent.handle.seal(json(202, { data: { id: r.invoice.invoice.id, authority_status: r.invoice.invoice.authorityStatus } })),
    );
    const again = await retry(account, 'post', `/invoices/${invoiceId}/resend`, resent.key, {}, 202);
    expect(again.body.data).toEqual({ id: invoiceId, authority_status: 'queued' });
  });

  it('PUT /invoices/{id}: the correction, never a second one', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const body = invoiceBody(taxpayerId, systemId);
    const registered = await request(t.app).post('/api/v1/invoices').set(account.auth).send(body).expect(201);
    const invoiceId: string = registered.body.data.id;
    await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'accepted' WHERE id = ${invoiceId}`);
    const corrected = await claimedByAnotherProcess(account, 'PUT', `/api/v1/invoices/${invoiceId}`, body);
    const record = await corrected.services.correction.correct(corrected.accountRow, invoiceId, body, log, (r) =>
      corrected.handle.seal(json(200, { data: { record_id: r.id } })),
    );
    const again = await retry(account, 'put', `/invoices/${invoiceId}`, corrected.key, body, 200);
    expect(again.body.data.record_id).toBe(record.id);
    const { rows } = await t.db.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM invoices WHERE invoice_id = ${invoiceId}`);
    expect(rows[0].n).toBe(2);
  });

  it('POST /invoices/batch: the items the dead run registered, found again with their answers, the others run now', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const first = invoiceBody(taxpayerId, systemId);
    const items = [first, invoiceBody(taxpayerId, systemId), invoiceBody(taxpayerId, systemId)];
    const dead = await claimedByAnotherProcess(account, 'POST', '/api/v1/invoices/batch', items);
    // The dead run appended the first two items (one taxpayer's append), then died before the batch's answer.
    const itemAnswer = (handle: IdempotencyHandle, at: number) => (r: { id: string; chainPosition: number }) =>
      handle.sealItem(at, json(201, { id: r.id, chain_position: r.chainPosition }));
    const outcomes = await dead.services.registration.registerBatch(dead.accountRow, items.slice(0, 2), log, (at) =>
      itemAnswer(dead.handle, at),
    );
    const ids = outcomes.map((o) => (o.ok ? o.registered.id : 'refused'));
    // Its claim expires (the process is gone); the client's retry takes it over.
    await t.db.db.execute(sql`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = ${dead.key}`);
    const again = await request(t.app)
      .post('/api/v1/invoices/batch')
      .set(account.auth)
      .set('Idempotency-Key', dead.key)
      .send(items)
      .expect(201);
    expect(again.body.registered).toBe(3);
    expect(again.body.results.slice(0, 2)).toEqual([
      { index: 0, status: 201, data: { id: ids[0], chain_position: 1 } },
      { index: 1, status: 201, data: { id: ids[1], chain_position: 2 } },
    ]);
    expect(again.body.results[2]).toMatchObject({ index: 2, status: 201, data: { chain_position: 3 } });
    const { rows } = await t.db.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM invoices WHERE taxpayer_id = ${taxpayerId}`);
    expect(rows[0].n).toBe(3);
    // From now on the whole answer is the key's: replayed as it was sent.
    const replay = await request(t.app).post('/api/v1/invoices/batch').set(account.auth).set('Idempotency-Key', dead.key).send(items);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(again.body);
  });

  it('POST /tax-ids/lists: the list, never a second one', async () => {
    const account = await registerAccount(t.app);
    const body = { tax_ids: [{ nif: uniqueNif(), name: 'Empresa SL' }, { vat_number: 'DE123456789' }] };
    const created = await claimedByAnotherProcess(account, 'POST', '/api/v1/tax-ids/lists', body);
    const list = await created.services.taxIdLists.create(created.accountRow.id, parseWith(taxIdListSchema, body), (l) =>
      created.handle.seal(json(202, { data: { id: l.id, total: l.total } }, `/api/v1/tax-ids/lists/${l.id}`)),
    );
    const again = await retry(account, 'post', '/tax-ids/lists', created.key, body, 202);
    expect(again.body.data).toEqual({ id: list.id, total: 2 });
    expect(again.headers.location).toBe(`/api/v1/tax-ids/lists/${list.id}`);
    expect(await count('tax_id_lists', created.accountRow.id)).toBe(1);
  });

  it('POST /taxpayers/{id}/remissions: the remission, never 409 remission_in_progress for its own', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
    // The records' signatures as a NO VERI*FACTU system keeps them (their bytes do not matter to planning).
    await t.db.db.execute(
      sql`INSERT INTO signed_records (invoice_id, xml) SELECT id, '<x/>' FROM invoices WHERE taxpayer_id = ${taxpayerId}`,
    );
    const body = { requirement_reference: 'REQ2026A1', period: { from: madridToday(), to: madridToday() } };
    const path = `/taxpayers/${taxpayerId}/remissions`;
    const started = await claimedByAnotherProcess(account, 'POST', `/api/v1${path}`, body);
    const remission = await started.services.remissions.start(
      started.accountRow.id,
      taxpayerId,
      parseWith(remissionCreateSchema, body),
      (r) => started.handle.seal(json(202, { data: { id: r.id, record_count: r.recordCount } }, `/api/v1${path}/${r.id}`)),
    );
    const again = await retry(account, 'post', path, started.key, body, 202);
    expect(again.body.data).toEqual({ id: remission.id, record_count: 1 });
    expect(await count('remissions', started.accountRow.id)).toBe(1);
  });

  it('POST /taxpayers/{id}/checks: the report, its events written once', async () => {
    const { account, taxpayerId, events } = await keptTaxpayer();
    const before = await events();
    const body = { subject: 'records' };
    const checked = await claimedByAnotherProcess(account, 'POST', `/api/v1/taxpayers/${taxpayerId}/checks`, body);
    const report = await checked.services.integrityChecks.check(checked.accountRow.id, taxpayerId, { subject: 'records' }, (r) =>
      checked.handle.seal(json(200, { data: { checked: r.links.length, restored: r.restored } })),
    );
    expect(await events()).toBe(before + 1);
    const again = await retry(account, 'post', `/taxpayers/${taxpayerId}/checks`, checked.key, body, 200);
    expect(again.body.data).toEqual({ checked: report.links.length, restored: true });
    expect(await events()).toBe(before + 1);
  });

  it('POST /taxpayers/{id}/exports: 409 export_already_made naming its event, never a second export', async () => {
    const { account, taxpayerId, events } = await keptTaxpayer();
    const before = await events();
    const body = {
      subject: 'records',
      from: new Date(Date.now() - 3_600_000).toISOString(),
      to: new Date(Date.now() + 3_600_000).toISOString(),
    };
    const exported = await claimedByAnotherProcess(account, 'POST', `/api/v1/taxpayers/${taxpayerId}/exports`, body);
    let made: string[] = [];
    await exported.services.periodExports.export(
      exported.accountRow.id,
      taxpayerId,
      { subject: 'records', from: body.from, to: body.to },
      (e) => {
        made = e.map((x) => x.id);
        return exported.handle.seal(problemAnswer(alreadyMade(e), 'dead'));
      },
    );
    expect(made).toHaveLength(1);
    const again = await retry(account, 'post', `/taxpayers/${taxpayerId}/exports`, exported.key, body, 409);
    expect(again.body).toMatchObject({ code: 'export_already_made', event_ids: made });
    expect(await events()).toBe(before + 1);
  });

  it('POST /taxpayers/{id}/events: the event 90, written once', async () => {
    const { account, taxpayerId, systemId, events } = await keptTaxpayer();
    const before = await events();
    const body = { system_id: systemId, description: 'Cambio de la impresora de tickets' };
    const recorded = await claimedByAnotherProcess(account, 'POST', `/api/v1/taxpayers/${taxpayerId}/events`, body);
    const event = await recorded.services.eventLog.recordOther(recorded.accountRow.id, taxpayerId, body, (e) =>
      recorded.handle.seal(json(201, { data: { id: e.id, type: e.type } }, `/api/v1/taxpayers/${taxpayerId}/events/${e.id}`)),
    );
    const again = await retry(account, 'post', `/taxpayers/${taxpayerId}/events`, recorded.key, body, 201);
    expect(again.body.data).toEqual({ id: event.id, type: '90' });
    expect(await events()).toBe(before + 1);
  });

  it('PUT /account/settings: the setting and the answer it was given', async () => {
    const account = await registerAccount(t.app);
    const change = { recipient_check: 'refuse' };
    const dead = await claimedByAnotherProcess(account, 'PUT', '/api/v1/account/settings', change);
    await dead.services.account.updateSettings(dead.accountRow, { recipient_check: 'refuse' }, ({ account: a }) =>
      dead.handle.seal(json(200, { data: { recipient_check: a.recipientCheck } })),
    );
    const again = await retry(account, 'put', '/account/settings', dead.key, change, 200);
    expect(again.body.data).toEqual({ recipient_check: 'refuse' });
  });

  it('is proven for every changing route: a route added later is added here, with its write keeping its answer', () => {
    const changing = apiRouteDocs
      .filter((d) => !d.public && ['post', 'put', 'patch'].includes(d.method))
      .map((d) => `${d.method.toUpperCase()} ${d.path}`);
    expect(changing.sort()).toEqual(
      [
        // Above.
        'POST /systems',
        'PUT /systems/:id',
        'POST /taxpayers',
        'PUT /taxpayers/:id',
        'POST /webhooks',
        'POST /webhooks/:id/test',
        'POST /invoices/:id/resend',
        'PUT /invoices/:id',
        'POST /invoices/batch',
        // idempotency.test.ts: registrations and cancellations by a process that died; dry runs, which write nothing.
        'POST /invoices',
        'POST /invoices/:id/cancel',
        'POST /invoices/validate',
        'POST /invoices/classify',
        // Above: the list, the remission and the check keep their answers; an export keeps 409 export_already_made.
        'POST /tax-ids/lists',
        'POST /taxpayers/:id/remissions',
        'POST /taxpayers/:id/checks',
        'POST /taxpayers/:id/exports',
        // Above: an event of the taxpayer's own (90).
        'POST /taxpayers/:id/events',
        // Above: the account's default recipient check.
        'PUT /account/settings',
        // e2e/src/census/tax-id-check.test.ts: a census check keeps its answer as it goes out (it writes only evidence).
        'POST /tax-ids/check',
      ].sort(),
    );
  });
});
