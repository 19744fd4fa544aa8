import { sql } from 'drizzle-orm';
import request from 'supertest';
import { computeRegistrationHash, SCENARIO_NAMES } from '@vf/core';
import { invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HEADER = 'Sandbox-Scenario';

async function counts() {
  const { rows } = await t.db.db.execute<{ records: number; chains: number }>(
    sql`SELECT (SELECT count(*) FROM invoices)::int AS records, (SELECT count(*) FROM chains)::int AS chains`,
  );
  return rows[0];
}

async function chainOf(id: string) {
  const { rows } = await t.db.db.execute<{ scenario: boolean; chain_seq: number; sandbox_scenario: string | null }>(
    sql`SELECT c.scenario, i.chain_seq, i.sandbox_scenario FROM invoices i JOIN chains c ON c.id = i.chain_id WHERE i.id = ${id}`,
  );
  return rows[0];
}

/** The RegistroAlta fields the huella is computed over, as its XML carries them. */
function hashFieldsOf(xml: string) {
  const value = (tag: string, within = xml) => new RegExp(`<(?:\\w+:)?${tag}>([^<]*)<`).exec(within)?.[1] ?? '';
  const previous = /RegistroAnterior>([\s\S]*?)<\/(?:\w+:)?RegistroAnterior/.exec(xml)?.[1];
  return {
    issuerNif: value('IDEmisorFactura'),
    invoiceNumber: value('NumSerieFactura'),
    invoiceDate: value('FechaExpedicionFactura'),
    invoiceType: value('TipoFactura'),
    totalTax: value('CuotaTotal'),
    total: value('ImporteTotal'),
    previousHash: previous === undefined ? undefined : value('Huella', previous),
    generatedAt: value('FechaHoraHusoGenRegistro'),
  };
}

describe('a sandbox scenario per request', () => {
  it('keeps the scenario with the record, on a chain of its own, and shows it in the invoice', async () => {
    const ready = await readyAccount(t.app);
    const real = await request(t.app).post('/api/v1/invoices').set(ready.account.auth).send(invoiceBody(ready.taxpayerId, ready.systemId));
    const res = await request(t.app)
      .post('/api/v1/invoices')
      .set(ready.account.auth)
      .set(HEADER, 'rejected:1100')
      .send(invoiceBody(ready.taxpayerId, ready.systemId))
      .expect(201);
    // First of its own chain: the real chain's head is not its previous record.
    expect(res.body.data).toMatchObject({ chain_position: 1, previous_hash: null });
    expect(await chainOf(res.body.data.id)).toEqual({ scenario: true, chain_seq: 1, sandbox_scenario: 'rejected:1100' });
    expect(await chainOf(real.body.data.id)).toMatchObject({ scenario: false, sandbox_scenario: null });
    const detail = (await request(t.app).get(`/api/v1/invoices/${res.body.data.id}`).set(ready.account.auth).expect(200)).body.data;
    expect(detail.sandbox_scenario).toBe('rejected:1100');
    expect(detail.records[0].sandbox_scenario).toBe('rejected:1100');
    // Not in the record: the XML the simulator receives is the record alone.
    const xml = (await request(t.app).get(detail.records[0].xml_url).set(ready.account.auth).expect(200)).text;
    expect(xml).not.toMatch(/rejected|1100|scenario/i);
    // Its huella is that of the record's own fields, and its QR names the invoice alone.
    expect(computeRegistrationHash(hashFieldsOf(xml))).toBe(detail.records[0].hash);
    expect(detail.qr_url).not.toMatch(/rejected|1100|scenario/i);
    // The real chain goes on from its own head: the record the authority receives next names the one it received.
    const next = await request(t.app).post('/api/v1/invoices').set(ready.account.auth).send(invoiceBody(ready.taxpayerId, ready.systemId));
    expect(next.body.data).toMatchObject({ chain_position: 2, previous_hash: real.body.data.hash });
  });

  it('puts corrections and cancellations of a scenario invoice on its scenario chain, and refuses a scenario on a real invoice', async () => {
    const ready = await readyAccount(t.app);
    const body = invoiceBody(ready.taxpayerId, ready.systemId);
    const scenario = (await request(t.app).post('/api/v1/invoices').set(ready.account.auth).set(HEADER, 'accepted').send(body)).body.data;
    const real = (await request(t.app).post('/api/v1/invoices').set(ready.account.auth).send(body).expect(201)).body.data;
    await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'accepted'`);
    const corrected = await request(t.app)
      .put(`/api/v1/invoices/${scenario.id}`)
      .set(ready.account.auth)
      .set(HEADER, 'accepted_with_errors:2001')
      .send({ ...body, description: 'Corregida' })
      .expect(201);
    expect(await chainOf(corrected.body.data.id)).toEqual({ scenario: true, chain_seq: 2, sandbox_scenario: 'accepted_with_errors:2001' });
    await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'accepted'`);
    const cancelled = await request(t.app).post(`/api/v1/invoices/${scenario.id}/cancel`).set(ready.account.auth).send({}).expect(201);
    expect(await chainOf(cancelled.body.data.id)).toEqual({ scenario: true, chain_seq: 3, sandbox_scenario: 'accepted' });

    const before = await counts();
    const refused = await request(t.app)
      .post(`/api/v1/invoices/${real.id}/cancel`)
      .set(ready.account.auth)
      .set(HEADER, 'accepted')
      .send({});
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('sandbox_scenario_not_applicable');
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['an unknown name', 'approved', 'invalid_sandbox_scenario'],
    ['a record code where a message code goes', 'message_refused:1100', 'invalid_sandbox_scenario'],
    ['a message code where a record code goes', 'rejected:4104', 'invalid_sandbox_scenario'],
  ])('refuses %s with 400 and the valid names, writing nothing', async (_what, value, code) => {
    const ready = await readyAccount(t.app);
    const before = await counts();
    const res = await request(t.app)
      .post('/api/v1/invoices')
      .set(ready.account.auth)
      .set(HEADER, value)
      .send(invoiceBody(ready.taxpayerId, ready.systemId));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code, valid_scenarios: expect.arrayContaining(['accepted', 'rejected:<code>']) });
    expect(await counts()).toEqual(before);
  });

  it('refuses a scenario on a production taxpayer, and a batch item’s alone', async () => {
    const ready = await readyAccount(t.app, { is_production: true });
    const before = await counts();
    const res = await request(t.app)
      .post('/api/v1/invoices')
      .set(ready.account.auth)
      .set(HEADER, 'accepted')
      .send(invoiceBody(ready.taxpayerId, ready.systemId));
    expect([res.status, res.body.code]).toEqual([400, 'sandbox_scenario_in_production']);
    expect(await counts()).toEqual(before);

    const sandbox = await readyAccount(t.app);
    const batch = await request(t.app)
      .post('/api/v1/invoices/batch')
      .set(sandbox.account.auth)
      .send([
        { ...invoiceBody(sandbox.taxpayerId, sandbox.systemId), sandbox_scenario: 'authority_down:3' },
        { ...invoiceBody(sandbox.taxpayerId, sandbox.systemId), sandbox_scenario: 'down' },
        invoiceBody(sandbox.taxpayerId, sandbox.systemId),
      ])
      .expect(207);
    expect(batch.body.results.map((r: { status: number }) => r.status)).toEqual([201, 400, 201]);
    expect(batch.body.results[1].problem.code).toBe('invalid_sandbox_scenario');
    expect(await chainOf(batch.body.results[0].data.id)).toEqual({ scenario: true, chain_seq: 1, sandbox_scenario: 'authority_down:3' });
    expect(await chainOf(batch.body.results[2].data.id)).toMatchObject({ scenario: false, sandbox_scenario: null });

    // A batch's refused items write nothing: a production taxpayer's, a code of the wrong level; the rest go in.
    const written = await counts();
    const mixed = await request(t.app)
      .post('/api/v1/invoices/batch')
      .set(ready.account.auth)
      .send([
        { ...invoiceBody(ready.taxpayerId, ready.systemId), sandbox_scenario: 'accepted' },
        { ...invoiceBody(ready.taxpayerId, ready.systemId), sandbox_scenario: 'rejected:4104' },
        invoiceBody(ready.taxpayerId, ready.systemId),
      ])
      .expect(207);
    const results = mixed.body.results as { status: number; problem?: { code: string; valid_scenarios?: string[] } }[];
    expect(results.map((r) => [r.status, r.problem?.code])).toEqual([
      [400, 'sandbox_scenario_in_production'],
      [400, 'invalid_sandbox_scenario'],
      [201, undefined],
    ]);
    expect(results[1].problem?.valid_scenarios).toContain('rejected:<code>');
    expect(await counts()).toEqual({ records: written.records + 1, chains: written.chains });
  });

  it('refuses a new record of a scenario invoice once its taxpayer registers in production, writing nothing', async () => {
    const ready = await readyAccount(t.app);
    const body = invoiceBody(ready.taxpayerId, ready.systemId);
    const scenario = (await request(t.app).post('/api/v1/invoices').set(ready.account.auth).set(HEADER, 'accepted').send(body)).body.data;
    await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'accepted' WHERE invoice_id = ${scenario.id}`);
    await request(t.app).put(`/api/v1/taxpayers/${ready.taxpayerId}`).set(ready.account.auth).send({ is_production: true }).expect(200);
    const before = await counts();
    const correct = (scenarioHeader?: string) => {
      const call = request(t.app).put(`/api/v1/invoices/${scenario.id}`).set(ready.account.auth);
      return (scenarioHeader ? call.set(HEADER, scenarioHeader) : call).send({ ...body, description: 'Corregida' });
    };
    const named = await correct('accepted');
    expect([named.status, named.body.code]).toEqual([400, 'sandbox_scenario_in_production']);
    expect(named.body.valid_scenarios).toContain('accepted');
    const unnamed = await correct();
    expect([unnamed.status, unnamed.body.code]).toEqual([409, 'invoice_in_other_environment']);
    const cancel = await request(t.app)
      .post(`/api/v1/invoices/${scenario.id}/cancel`)
      .set(ready.account.auth)
      .set(HEADER, 'accepted')
      .send({});
    expect([cancel.status, cancel.body.code]).toEqual([400, 'sandbox_scenario_in_production']);
    expect(await counts()).toEqual(before);
  });
});

describe('a scenario and an Idempotency-Key', () => {
  it('replays the same request, and refuses the key for the same body under another scenario', async () => {
    const ready = await readyAccount(t.app);
    const body = invoiceBody(ready.taxpayerId, ready.systemId);
    const post = (scenario: string) =>
      request(t.app)
        .post('/api/v1/invoices')
        .set(ready.account.auth)
        .set('Idempotency-Key', 'scenario-key')
        .set(HEADER, scenario)
        .send(body);
    const first = await post('rejected:1100').expect(201);
    const replay = await post('rejected:1100').expect(201);
    expect([replay.headers['idempotent-replayed'], replay.body.data.id]).toEqual(['true', first.body.data.id]);
    expect((await post('accepted').expect(422)).body.code).toBe('idempotency_key_reused');
  });
});

describe('the OpenAPI document', () => {
  it('names every scenario in the header of registration, correction and cancellation, and in the catalogue', async () => {
    const doc = (await request(t.app).get('/api/v1/openapi.json').expect(200)).body;
    type Parameter = { name: string; in: string; schema: { pattern: string; examples: string[] } };
    for (const [path, method] of [
      ['/invoices', 'post'],
      ['/invoices/{id}', 'put'],
      ['/invoices/{id}/cancel', 'post'],
    ]) {
      const header = (doc.paths[path][method].parameters as Parameter[]).find((p) => p.name === HEADER && p.in === 'header');
      expect([path, header?.schema.examples.map((e) => e.split(':')[0])]).toEqual([path, [...SCENARIO_NAMES]]);
      for (const example of header!.schema.examples) expect(example).toMatch(new RegExp(header!.schema.pattern));
    }
    const catalogue = doc.paths['/sandbox/scenarios'].get.responses['200'].content['application/json'].schema;
    expect(catalogue.properties.data.items.properties.name.enum).toEqual([...SCENARIO_NAMES]);
  });
});

describe('GET /api/v1/sandbox/scenarios', () => {
  it('lists every scenario with what to expect, in Spanish and English', async () => {
    const ready = await readyAccount(t.app);
    const { data } = (await request(t.app).get('/api/v1/sandbox/scenarios').set(ready.account.auth).expect(200)).body;
    expect(data.map((s: { name: string }) => s.name)).toEqual([...SCENARIO_NAMES]);
    const rejected = data.find((s: { name: string }) => s.name === 'rejected');
    expect(rejected).toMatchObject({
      form: 'rejected:<code>',
      example: 'rejected:1100',
      expect: { final_status: 'rejected', authority_code: 1100, sends: { min: 1, max: 1 } },
      explanation: { es: expect.stringMatching(/rechaza/), en: expect.stringMatching(/refuses/) },
    });
    expect(rejected.codes.find((c: { code: number }) => c.code === 1129)).toMatchObject({ final_status: 'accepted', sends: { min: 2 } });
  });
});
