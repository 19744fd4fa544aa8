import request from 'supertest';
import { sql } from 'drizzle-orm';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// POST /api/v1/tax-ids/check through the real simulator's census over mutual TLS: each answer, the cache shared by the
// deployment (a hit, expiry with max_age, nothing kept for an unknown), evidence per account, bad input refused.

let env: WorkerTestEnv;
let party: Party;
let unknownNif: string;

beforeAll(async () => {
  env = await WorkerTestEnv.create({ unknownNifs: [] });
  party = await env.party();
  unknownNif = env.freshNif();
  env.sim.seedCensus([{ nif: unknownNif, status: 'unknown' }]);
});
afterAll(async () => {
  await env?.close();
});

const check = (body: unknown, who: Party = party) =>
  request(env.api)
    .post('/api/v1/tax-ids/check')
    .set(who.account.auth)
    .send(body as object);
const censusRequests = () => env.sim.state.counters.censusRequests;

test('answers each kind of result from the census, in the order asked', async () => {
  const [company, gone, revoked, busy, person] = [env.freshNif(), env.freshNif(), env.freshNif(), env.freshNif(), env.freshNif()];
  env.sim.seedCensus([
    { nif: company, status: 'identified', name: 'Construcciones Núñez, S.L.' },
    { nif: gone, status: 'deregistered' },
    { nif: revoked, status: 'revoked' },
    { nif: busy, status: 'not_processed' },
  ]);
  const res = await check({
    tax_ids: [
      { nif: company, name: 'CONSTRUCCIONES  NUÑEZ SL' },
      { nif: company, name: 'Núñez Construcciones y Obras' },
      { nif: unknownNif, name: 'NADIE' },
      { nif: gone, name: 'ALGUIEN' },
      { nif: revoked, name: 'OTRA SA' },
      { nif: busy, name: 'OCUPADO' },
      { nif: person, name: 'García López, Ana' },
    ],
  }).expect(200);
  expect(res.body.data.map((a: any) => [a.nif, a.result, a.detail, a.census_name, a.source])).toEqual([
    [company, 'valid', 'identified', undefined, 'aeat_census'],
    [company, 'invalid', 'similar', 'Construcciones Núñez, S.L.', 'aeat_census'],
    [unknownNif, 'invalid', 'not_identified', undefined, 'aeat_census'],
    [gone, 'invalid', 'deregistered', undefined, 'aeat_census'],
    [revoked, 'invalid', 'revoked', undefined, 'aeat_census'],
    [busy, 'unknown', 'not_processed', undefined, 'aeat_census'],
    [person, 'valid', 'identified', undefined, 'aeat_census'],
  ]);
  expect(Date.parse(res.body.data[0].checked_at)).not.toBeNaN();
});

test('answers a second question on the same NIF and name from the cache, however the name is spelled', async () => {
  const nif = env.freshNif();
  const first = await check({ nif, name: 'Pérez Martín, José' }).expect(200);
  expect(first.body.data).toMatchObject({ nif, result: 'valid', detail: 'identified', source: 'aeat_census' });
  const before = censusRequests();
  const again = await check({ nif, name: 'PEREZ MARTIN JOSE' }).expect(200);
  expect(again.body.data).toMatchObject({ nif, result: 'valid', source: 'cache', checked_at: first.body.data.checked_at });
  expect(censusRequests()).toBe(before);
});

test('replays the answer of a check sent again with its Idempotency-Key', async () => {
  const nif = env.freshNif();
  const send = () =>
    request(env.api)
      .post('/api/v1/tax-ids/check')
      .set(party.account.auth)
      .set('Idempotency-Key', `check-${nif}`)
      .send({ nif, name: 'ANA', max_age: 0 });
  const first = await send().expect(200);
  const before = censusRequests();
  const replay = await send().expect(200);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.body).toEqual(first.body);
  expect(censusRequests()).toBe(before);
});

test('asks the census again once the answer held is older than max_age', async () => {
  const nif = env.freshNif();
  await check({ nif, name: 'ANA' }).expect(200);
  await env.db.db.execute(sql`UPDATE census_answers SET checked_at = checked_at - interval '10 minutes' WHERE nif = ${nif}`);
  expect((await check({ nif, name: 'ANA', max_age: 3600 }).expect(200)).body.data.source).toBe('cache');
  const before = censusRequests();
  expect((await check({ nif, name: 'ANA', max_age: 300 }).expect(200)).body.data.source).toBe('aeat_census');
  expect(censusRequests()).toBe(before + 1);
});

test('keeps nothing the census did not answer: the next check asks it again', async () => {
  const nif = env.freshNif();
  env.sim.inject({ kind: 'http500Empty', operation: 'VNifV2' });
  try {
    expect((await check({ nif, name: 'ANA' }).expect(200)).body.data).toMatchObject({ result: 'unknown', detail: 'not_processed' });
  } finally {
    env.sim.clearFaults({ kind: 'http500Empty' });
  }
  expect((await check({ nif, name: 'ANA' }).expect(200)).body.data).toMatchObject({ result: 'valid', source: 'aeat_census' });
});

test("keeps each account's evidence apart, even when the cache answered the other account", async () => {
  const other = await env.party();
  const nif = env.freshNif();
  await check({ nif, name: 'EMPRESA SA' }).expect(200);
  const mine = await request(env.api).get(`/api/v1/tax-ids/checks?tax_id=${nif}`).set(party.account.auth).expect(200);
  expect(mine.body.data).toEqual([
    {
      tax_id: nif,
      result: 'valid',
      detail: 'identified',
      source: 'aeat_census',
      request_digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      checked_at: expect.any(String),
    },
  ]);
  expect((await request(env.api).get('/api/v1/tax-ids/checks').set(other.account.auth).expect(200)).body.data).toEqual([]);
  expect((await check({ nif, name: 'EMPRESA SA' }, other).expect(200)).body.data.source).toBe('cache');
  const theirs = await request(env.api).get('/api/v1/tax-ids/checks').set(other.account.auth).expect(200);
  expect(theirs.body.data).toEqual([expect.objectContaining({ tax_id: nif, source: 'cache' })]);
  expect((await request(env.api).get(`/api/v1/tax-ids/checks?tax_id=${nif}`).set(party.account.auth)).body.data).toHaveLength(1);
});

test("goes out under the taxpayer's own certificate when the request names the taxpayer", async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const nif = env.freshNif();
  env.sim.inject({ kind: 'http500Empty', operation: 'VNifV2', certificateNif: taxpayer.nif });
  try {
    const own = await check({ nif, name: 'ANA', taxpayer_id: taxpayer.id }).expect(200);
    expect(own.body.data).toMatchObject({ result: 'unknown' });
    expect((await check({ nif, name: 'ANA' }).expect(200)).body.data).toMatchObject({ result: 'valid' });
  } finally {
    env.sim.clearFaults({ kind: 'http500Empty' });
  }
});

test('refuses bad input with a problem and asks the census nothing', async () => {
  const before = censusRequests();
  const badNif = await check({ nif: '12345678A', name: 'X' }).expect(422);
  expect(badNif.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'nif', code: 'invalid_nif' }] });
  const tooMany = Array.from({ length: 101 }, () => ({ nif: env.freshNif(), name: 'X' }));
  expect((await check({ tax_ids: tooMany }).expect(422)).body.errors).toEqual([
    expect.objectContaining({ field: 'tax_ids', code: 'too_long' }),
  ]);
  expect((await check({ nif: env.freshNif() }).expect(422)).body.code).toBe('validation_failed');
  const stranger = await env.party();
  const theirs = await env.taxpayer(stranger, { certificate: 'none' });
  expect((await check({ nif: env.freshNif(), name: 'X', taxpayer_id: theirs.id }).expect(404)).body.code).toBe('taxpayer_not_found');
  expect(censusRequests()).toBe(before);
});

test("refuses checks past the plan's monthly allowance with 429, lists whole, and asks the census nothing then", async () => {
  const small = await env.party();
  await env.db.db.execute(sql`UPDATE accounts SET plan_id = 'free' WHERE email = ${small.account.email}`);
  const hundred = Array.from({ length: 100 }, () => ({ nif: env.freshNif(), name: 'X' }));
  await check({ tax_ids: hundred.slice(0, 60) }, small).expect(200);
  const before = censusRequests();
  const over = await check({ tax_ids: hundred.slice(60).concat([{ nif: env.freshNif(), name: 'Y' }]) }, small).expect(429);
  expect(over.body).toMatchObject({ code: 'tax_id_checks_exceeded', status: 429 });
  expect(over.body.detail).toContain('100 tax ID checks a month; 60 are used');
  const list = await request(env.api)
    .post('/api/v1/tax-ids/lists')
    .set(small.account.auth)
    .send({ tax_ids: hundred.slice(0, 41) })
    .expect(429);
  expect(list.body.code).toBe('tax_id_checks_exceeded');
  expect(censusRequests()).toBe(before);
  await check({ tax_ids: hundred.slice(60) }, small).expect(200);
});
