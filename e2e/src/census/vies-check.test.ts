import request from 'supertest';
import { taxIdChecksTotal, taxIdServiceDuration } from '@vf/metrics';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// POST /api/v1/tax-ids/check for EU VAT numbers through the simulator's VIES stand-in: VIES's test numbers (100 valid,
// 200 invalid, the others one fault each), a member state's outage read as unknown and asked again, Greece as EL,
// Northern Ireland as XI, Great Britain refused, and the consultation number kept as the account's evidence.

let env: WorkerTestEnv;
let party: Party;

beforeAll(async () => {
  env = await WorkerTestEnv.create({ unknownNifs: [] });
  party = await env.party();
});
afterAll(async () => {
  await env?.close();
});

const check = (body: unknown) =>
  request(env.api)
    .post('/api/v1/tax-ids/check')
    .set(party.account.auth)
    .send(body as object);
const viesRequests = () => env.sim.state.counters.viesRequests;

test('answers valid, invalid, and unknown with the fault code for each of the test numbers, mixed with NIFs in order', async () => {
  const nif = env.freshNif();
  const numbers = ['DE100', 'FR200', 'IT201', 'AT300', 'NL301', 'BE302', 'PT500', 'SE600'];
  const res = await check({
    tax_ids: [
      ...numbers.slice(0, 2).map((vat_number) => ({ vat_number })),
      { nif, name: 'ANA' },
      ...numbers.slice(2).map((vat_number) => ({ vat_number })),
    ],
  }).expect(200);
  expect(res.body.data.map((a: any) => [a.vat_number ?? a.nif, a.result, a.detail, a.fault_code, a.source])).toEqual([
    ['DE100', 'valid', 'identified', undefined, 'vies'],
    ['FR200', 'invalid', 'not_identified', undefined, 'vies'],
    [nif, 'valid', 'identified', undefined, 'aeat_census'],
    ['IT201', 'invalid', 'not_identified', 'INVALID_INPUT', 'vies'],
    ['AT300', 'unknown', 'not_processed', 'SERVICE_UNAVAILABLE', 'vies'],
    ['NL301', 'unknown', 'not_processed', 'MS_UNAVAILABLE', 'vies'],
    ['BE302', 'unknown', 'not_processed', 'TIMEOUT', 'vies'],
    ['PT500', 'unknown', 'not_processed', 'GLOBAL_MAX_CONCURRENT_REQ', 'vies'],
    ['SE600', 'unknown', 'not_processed', 'MS_MAX_CONCURRENT_REQ', 'vies'],
  ]);
  expect(res.body.data[0]).toMatchObject({ trader_name: 'EMPRESA DE PRUEBAS', checked_at: expect.any(String) });
});

test("asks again, with backoff, while a member state's service is down; asks a refused or invalid number once", async () => {
  let before = viesRequests();
  expect((await check({ vat_number: 'NL301' }).expect(200)).body.data.result).toBe('unknown');
  expect(viesRequests() - before).toBe(4);
  before = viesRequests();
  await check({ vat_number: 'IT201' }).expect(200);
  await check({ vat_number: 'FR200' }).expect(200);
  expect(viesRequests() - before).toBe(2);
});

test('reads Greece as EL and Northern Ireland as XI, refuses Great Britain, and asks VIES nothing for a refused number', async () => {
  expect((await check({ vat_number: 'GR100' }).expect(200)).body.data).toMatchObject({ vat_number: 'EL100', result: 'valid' });
  expect((await check({ vat_number: 'xi 100' }).expect(200)).body.data).toMatchObject({ vat_number: 'XI100', result: 'valid' });
  const before = viesRequests();
  const gb = await check({ vat_number: 'GB123456789' }).expect(422);
  expect(gb.body).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ field: 'vat_number' })] });
  expect(gb.body.errors[0].message).toContain('since 2021');
  expect(viesRequests()).toBe(before);
});

test("asks under the taxpayer's VAT number when the check names one, and keeps VIES's consultation number as evidence", async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'none' });
  const plain = await check({ vat_number: 'DK100' }).expect(200);
  expect(plain.body.data.request_identifier).toBeUndefined();
  const asked = await check({ vat_number: 'DK100', taxpayer_id: taxpayer.id }).expect(200);
  expect(asked.body.data.request_identifier).toMatch(/^WAPI\d+$/);
  const evidence = await request(env.api).get('/api/v1/tax-ids/checks?tax_id=DK100').set(party.account.auth).expect(200);
  expect(evidence.body.data).toEqual([
    {
      tax_id: 'DK100',
      result: 'valid',
      detail: 'identified',
      source: 'vies',
      request_digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      request_identifier: asked.body.data.request_identifier,
      checked_at: asked.body.data.checked_at,
    },
    expect.objectContaining({ tax_id: 'DK100', source: 'vies' }),
  ]);
  expect(JSON.stringify(evidence.body)).not.toContain('EMPRESA DE PRUEBAS');
});

test('counts the checks by source and result, and times each call to VIES and to the census, in the API registry', async () => {
  const count = async (labels: { source: string; result: string }) =>
    (await taxIdChecksTotal.get()).values.find((v) => v.labels.source === labels.source && v.labels.result === labels.result)?.value ?? 0;
  const calls = async (service: string, outcome: string) =>
    (await taxIdServiceDuration.get()).values.find(
      (v) => v.metricName === 'vf_tax_id_service_duration_seconds_count' && v.labels.service === service && v.labels.outcome === outcome,
    )?.value ?? 0;
  const before = {
    viesValid: await count({ source: 'vies', result: 'valid' }),
    viesUnknown: await count({ source: 'vies', result: 'unknown' }),
    census: await count({ source: 'aeat_census', result: 'valid' }),
    cache: await count({ source: 'cache', result: 'valid' }),
    viesDown: await calls('vies', 'unknown'),
    censusCalls: await calls('census', 'answered'),
  };
  const nif = env.freshNif();
  await check({ tax_ids: [{ vat_number: 'DE100' }, { vat_number: 'BE302' }, { nif, name: 'ANA' }] }).expect(200);
  await check({ nif, name: 'ANA' }).expect(200);
  expect({
    viesValid: (await count({ source: 'vies', result: 'valid' })) - before.viesValid,
    viesUnknown: (await count({ source: 'vies', result: 'unknown' })) - before.viesUnknown,
    census: (await count({ source: 'aeat_census', result: 'valid' })) - before.census,
    cache: (await count({ source: 'cache', result: 'valid' })) - before.cache,
    viesDown: (await calls('vies', 'unknown')) - before.viesDown,
    censusCalls: (await calls('census', 'answered')) - before.censusCalls,
  }).toEqual({ viesValid: 1, viesUnknown: 1, census: 1, cache: 1, viesDown: 1, censusCalls: 1 });
});
