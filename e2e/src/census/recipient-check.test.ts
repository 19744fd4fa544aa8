import request from 'supertest';
import { invoiceBody } from '@vf/api/testing';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// A registration that checks its recipients first, Spanish NIFs against the simulator's census and EU VAT numbers with
// its VIES stand-in: `warn` registers and says what they said, `refuse` appends nothing for a recipient they do not
// identify, and an unknown never refuses.

let env: WorkerTestEnv;
let party: Party;
let taxpayerId: string;

beforeAll(async () => {
  env = await WorkerTestEnv.create();
  party = await env.party();
  taxpayerId = (await env.taxpayer(party, { certificate: 'none' })).id;
});
afterAll(async () => {
  await env?.close();
});

const register = (mode: string, recipient: Record<string, unknown>) =>
  request(env.api)
    .post(`/api/v1/invoices?recipient_check=${mode}`)
    .set(party.account.auth)
    .send(invoiceBody(taxpayerId, party.systemId, { recipient }));

const invoicesHeld = async () => (await request(env.api).get('/api/v1/invoices').set(party.account.auth).expect(200)).body.total as number;

test('warn registers the invoice and answers what the census said of its recipient', async () => {
  const nif = env.freshNif();
  env.sim.seedCensus([{ nif, status: 'deregistered' }]);
  const res = await register('warn', { name: 'Cliente de Baja SL', nif }).expect(201);
  expect(res.body.data.authority_status).toBe('queued');
  expect(res.body.recipient_check).toEqual([
    { nif, result: 'invalid', detail: 'deregistered', source: 'aeat_census', checked_at: expect.any(String) },
  ]); // Kept on the invoice: its JSON says it too.
  const invoice = await request(env.api).get(`/api/v1/invoices/${res.body.data.id}`).set(party.account.auth).expect(200);
  expect(invoice.body.data.recipient_check).toEqual(res.body.recipient_check);
});

test('refuse answers 422 with the census answer and the fix, and appends nothing', async () => {
  const nif = env.freshNif();
  env.sim.seedCensus([{ nif, status: 'identified', name: 'Cliente Verdadero SL' }]);
  const before = await invoicesHeld();
  const res = await register('refuse', { name: 'Cliente Parecido SL', nif }).expect(422);
  expect(res.body).toMatchObject({
    code: 'recipient_not_in_census',
    recipient_check: [{ nif, result: 'invalid', detail: 'similar', census_name: 'Cliente Verdadero SL' }],
  });
  expect(res.body.detail).toContain('id_type 07');
  expect(await invoicesHeld()).toBe(before);
  const fixed = await register('refuse', { name: 'CLIENTE VERDADERO, S.L.', nif }).expect(201);
  expect(fixed.body.recipient_check).toEqual([expect.objectContaining({ nif, result: 'valid', detail: 'identified' })]);
});

test('refuse never refuses on an answer the census could not give', async () => {
  const nif = env.freshNif();
  env.sim.seedCensus([{ nif, status: 'not_processed' }]);
  const res = await register('refuse', { name: 'Cliente SL', nif }).expect(201);
  expect(res.body.recipient_check).toEqual([expect.objectContaining({ nif, result: 'unknown', detail: 'not_processed' })]);
});

test('an invalid invoice is refused for what is wrong with it, before the census is asked', async () => {
  const before = env.sim.state.counters.censusRequests;
  const res = await request(env.api)
    .post('/api/v1/invoices?recipient_check=refuse')
    .set(party.account.auth)
    .send(invoiceBody(taxpayerId, party.systemId, { invoice_type: 'Z9' }))
    .expect(422);
  expect(res.body.code).toBe('validation_failed');
  expect(
    (await request(env.api).post('/api/v1/invoices?recipient_check=sometimes').set(party.account.auth).send({}).expect(422)).body.errors,
  ).toEqual([expect.objectContaining({ field: 'recipient_check', code: 'invalid_value' })]);
  expect(env.sim.state.counters.censusRequests).toBe(before);
});

test('a batch checks all its recipients in one census call and refuses alone the item the census does not identify', async () => {
  const [good, gone] = [env.freshNif(), env.freshNif()];
  env.sim.seedCensus([{ nif: gone, status: 'deregistered' }]);
  const before = { census: env.sim.state.counters.censusRequests, held: await invoicesHeld() };
  const items = [
    invoiceBody(taxpayerId, party.systemId, { recipient: { name: 'Cliente Bueno SL', nif: good } }),
    invoiceBody(taxpayerId, party.systemId, { recipient: { name: 'Cliente de Baja SL', nif: gone } }),
    invoiceBody(taxpayerId, party.systemId, { recipient: { name: 'Cliente Bueno SL', nif: good } }),
  ];
  const res = await request(env.api).post('/api/v1/invoices/batch?recipient_check=refuse').set(party.account.auth).send(items).expect(207);
  expect(res.body.results.map((r: any) => [r.status, r.problem?.code, r.recipient_check?.[0]?.detail])).toEqual([
    [201, undefined, 'identified'],
    [422, 'recipient_not_in_census', undefined],
    [201, undefined, 'identified'],
  ]);
  expect(res.body.results[1].problem.recipient_check).toEqual([expect.objectContaining({ nif: gone, detail: 'deregistered' })]);
  expect(env.sim.state.counters.censusRequests).toBe(before.census + 1);
  expect(await invoicesHeld()).toBe(before.held + 2);
  const warned = await request(env.api)
    .post('/api/v1/invoices/batch?recipient_check=warn')
    .set(party.account.auth)
    .send([items[1]])
    .expect(201);
  expect(warned.body.results[0].recipient_check).toEqual([expect.objectContaining({ nif: gone, result: 'invalid', source: 'cache' })]);
});

test('an account default checks the registrations that ask for none, single and batch, and a request still chooses', async () => {
  const owner = await env.party();
  const ownTaxpayer = (await env.taxpayer(owner, { certificate: 'none' })).id;
  const nif = env.freshNif();
  env.sim.seedCensus([{ nif, status: 'revoked' }]);
  const body = () => invoiceBody(ownTaxpayer, owner.systemId, { recipient: { name: 'Cliente Revocado SL', nif } });
  const settings = (recipient_check: unknown) =>
    request(env.api).put('/api/v1/account/settings').set(owner.account.auth).send({ recipient_check });
  const held = async () => (await request(env.api).get('/api/v1/invoices').set(owner.account.auth).expect(200)).body.total as number;

  expect((await settings('refuse').expect(200)).body.data.recipient_check).toBe('refuse');
  expect((await request(env.api).get('/api/v1/account').set(owner.account.auth).expect(200)).body.data.recipient_check).toBe('refuse');
  // A plain registration (its key checked in its chain read) is refused by the default, and nothing is appended.
  const refused = await request(env.api).post('/api/v1/invoices').set(owner.account.auth).send(body()).expect(422);
  expect(refused.body).toMatchObject({ code: 'recipient_not_in_census', recipient_check: [{ nif, detail: 'revoked' }] });
  const batch = await request(env.api).post('/api/v1/invoices/batch').set(owner.account.auth).send([body()]).expect(207);
  expect(batch.body.results[0].problem.code).toBe('recipient_not_in_census');
  expect(await held()).toBe(0);
  // The request's own choice wins over the default.
  const warned = await request(env.api).post('/api/v1/invoices?recipient_check=warn').set(owner.account.auth).send(body()).expect(201);
  expect(warned.body.recipient_check).toEqual([expect.objectContaining({ nif, detail: 'revoked' })]);

  await settings('warn').expect(200);
  const kept = await request(env.api).post('/api/v1/invoices').set(owner.account.auth).send(body()).expect(201);
  expect(kept.body.recipient_check).toEqual([expect.objectContaining({ nif, result: 'invalid', detail: 'revoked' })]);
  const invoice = await request(env.api).get(`/api/v1/invoices/${kept.body.data.id}`).set(owner.account.auth).expect(200);
  expect(invoice.body.data.recipient_check).toEqual(kept.body.recipient_check);

  await settings(null).expect(200);
  const plain = await request(env.api).post('/api/v1/invoices').set(owner.account.auth).send(body()).expect(201);
  expect(plain.body.recipient_check).toBeUndefined();
  expect(
    (await request(env.api).get(`/api/v1/invoices/${plain.body.data.id}`).set(owner.account.auth)).body.data.recipient_check,
  ).toBeUndefined();
  expect((await settings('sometimes').expect(422)).body.errors).toEqual([expect.objectContaining({ field: 'recipient_check' })]);
});

// EU VAT numbers (IDOtro with id_type 02) go to VIES's stand-in: RO200 is VIES's invalid test number, RO301 its
// member-state outage, RO100 a valid one (Romania's numbers are 2 to 10 digits, so the test numbers are well formed).
const euRecipient = (id: string) => ({ name: 'Client Test SRL', country: 'RO', id_type: '02', id });

test('warn registers an invoice VIES does not know the recipient of, and keeps what VIES said on it', async () => {
  const res = await register('warn', euRecipient('RO200')).expect(201);
  expect(res.body.recipient_check).toEqual([
    // The consultation number VIES gives a check made under the taxpayer's own VAT number: the check's evidence.
    {
      vat_number: 'RO200',
      result: 'invalid',
      detail: 'not_identified',
      request_identifier: expect.any(String),
      source: 'vies',
      checked_at: expect.any(String),
    },
  ]);
  const invoice = await request(env.api).get(`/api/v1/invoices/${res.body.data.id}`).set(party.account.auth).expect(200);
  expect(invoice.body.data.recipient_check).toEqual(res.body.recipient_check);
});

test('refuse answers 422 recipient_not_in_vies for a VAT number VIES does not know, and appends nothing', async () => {
  const before = { census: env.sim.state.counters.censusRequests, held: await invoicesHeld() };
  const res = await register('refuse', euRecipient('RO200')).expect(422);
  expect(res.body).toMatchObject({
    code: 'recipient_not_in_vies',
    recipient_check: [{ vat_number: 'RO200', result: 'invalid', source: 'vies' }],
  });
  expect(res.body.detail).toContain('id_type');
  expect(await invoicesHeld()).toBe(before.held);
  // VIES's numbers are never the census's business.
  expect(env.sim.state.counters.censusRequests).toBe(before.census);
  const valid = await register('refuse', euRecipient('RO100')).expect(201);
  expect(valid.body.recipient_check).toEqual([expect.objectContaining({ vat_number: 'RO100', result: 'valid', source: 'vies' })]);
});

test("refuse never refuses while a member state's VIES service is down", async () => {
  const res = await register('refuse', euRecipient('RO301')).expect(201);
  expect(res.body.recipient_check).toEqual([
    expect.objectContaining({ vat_number: 'RO301', result: 'unknown', detail: 'not_processed', fault_code: 'MS_UNAVAILABLE' }),
  ]);
});

test('a batch checks its NIFs in one census call and each VAT number with VIES, refusing alone the item VIES refuses', async () => {
  const nif = env.freshNif();
  const before = { census: env.sim.state.counters.censusRequests, vies: env.sim.state.counters.viesRequests, held: await invoicesHeld() };
  const items = [
    invoiceBody(taxpayerId, party.systemId, { recipient: { name: 'Cliente Bueno SL', nif } }),
    invoiceBody(taxpayerId, party.systemId, { recipient: euRecipient('RO200') }),
    invoiceBody(taxpayerId, party.systemId, {
      recipient: undefined,
      recipients: [{ name: 'Cliente Bueno SL', nif }, euRecipient('RO100')],
    }),
  ];
  const res = await request(env.api).post('/api/v1/invoices/batch?recipient_check=refuse').set(party.account.auth).send(items).expect(207);
  expect(res.body.results.map((r: any) => [r.status, r.problem?.code])).toEqual([
    [201, undefined],
    [422, 'recipient_not_in_vies'],
    [201, undefined],
  ]);
  expect(res.body.results[2].recipient_check.map((a: any) => [a.nif ?? a.vat_number, a.result, a.source])).toEqual([
    [nif, 'valid', 'aeat_census'],
    ['RO100', 'valid', 'vies'],
  ]);
  expect(env.sim.state.counters.censusRequests).toBe(before.census + 1);
  expect(env.sim.state.counters.viesRequests).toBe(before.vies + 2);
  expect(await invoicesHeld()).toBe(before.held + 2);
});

test('with an Idempotency-Key, a checked registration sent again answers what the first said, once', async () => {
  const nif = env.freshNif();
  const body = invoiceBody(taxpayerId, party.systemId, {
    recipients: [{ name: 'Cliente SL', nif }, euRecipient('RO100')],
    recipient: undefined,
  });
  const send = () =>
    request(env.api)
      .post('/api/v1/invoices?recipient_check=warn')
      .set(party.account.auth)
      .set('Idempotency-Key', `check-${nif}`)
      .send(body);
  const before = await invoicesHeld();
  const first = await send().expect(201);
  expect(first.body.recipient_check.map((a: any) => [a.nif ?? a.vat_number, a.result])).toEqual([
    [nif, 'valid'],
    ['RO100', 'valid'],
  ]);
  const again = await send().expect(201);
  expect(again.body).toEqual(first.body);
  expect(await invoicesHeld()).toBe(before + 1);
});
