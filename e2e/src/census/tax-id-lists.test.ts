import request from 'supertest';
import { waitUntil } from '@vf/core/testing';
import { testNif } from '../support/test-nifs';
import { WebhookReceiver } from '../support/webhook-receiver';
import { subscribe } from '../support/webhook-subscriptions';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// POST /api/v1/tax-ids/lists: up to 10,000 tax IDs checked by a worker against the simulator's census and VIES
// stand-in: 202 and a list to poll, its answers paged and as CSV, a webhook once done; repeated rows asked once, a
// census request that fails and a row not processed asked again; a CSV upload; bad input refused whole. A list of the
// full 10,000 is a load run: the benchmark's census workload checks one (`npm run bench -- --workloads census`).

let env: WorkerTestEnv;
let party: Party;
let receiver: WebhookReceiver;

beforeAll(async () => {
  env = await WorkerTestEnv.create({ unknownNifs: [], env: { RECONCILE_INTERVAL_MS: '500' } });
  party = await env.party();
  receiver = await WebhookReceiver.start();
  await subscribe(env.api, party, receiver, ['tax_id_list.completed']);
  await env.startWorker();
}, 60_000);
afterAll(async () => {
  await env?.close();
  await receiver?.close();
});

const api = () => request(env.api);
const done = async (id: string) => {
  let list: any;
  await waitUntil(
    async () => {
      list = (await api().get(`/api/v1/tax-ids/lists/${id}`).set(party.account.auth).expect(200)).body.data;
      return list.status === 'done';
    },
    `list ${id} done`,
    90_000,
    200,
  );
  return list;
};
async function allResults(id: string, limit = 1000): Promise<any[]> {
  const rows: any[] = [];
  for (let cursor: string | null = ''; cursor !== null;) {
    const res: request.Response = await api()
      .get(`/api/v1/tax-ids/lists/${id}/results?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
      .set(party.account.auth)
      .expect(200);
    rows.push(...res.body.data);
    cursor = res.body.next_cursor;
  }
  return rows;
}

test('checks a list with repeats through a failed census request and a row not processed, in few census requests', async () => {
  const gone = testNif(500_000);
  const middle = testNif(1_000_000 + 432);
  env.sim.seedCensus([{ nif: gone, status: 'deregistered' }]);
  // 900 distinct NIFs, 50 rows repeating one of them with the same name, 49 asking 49 of them with another name.
  const rows: { nif: string; name: string }[] = [];
  for (let i = 0; i < 900; i++) rows.push({ nif: testNif(1_000_000 + i), name: `EMPRESA ${i} SL` });
  for (let i = 0; i < 50; i++) rows.push({ nif: testNif(1_000_000 + 7), name: 'EMPRESA 7 SL' });
  for (let i = 0; i < 49; i++) rows.push({ nif: testNif(1_000_000 + 100 + i), name: `OTRO NOMBRE ${i}` });
  rows.push({ nif: gone, name: 'ALGUIEN' });
  env.sim.inject([
    { kind: 'http500Empty', operation: 'VNifV2', next: 1 },
    { kind: 'censusRepeatedRows', next: 1 },
    { kind: 'censusNotProcessed', nif: middle, next: 1 },
  ]);
  const before = env.sim.state.counters.censusRequests;
  const created = await api().post('/api/v1/tax-ids/lists').set(party.account.auth).send({ tax_ids: rows }).expect(202);
  expect(created.headers.location).toBe(`/api/v1/tax-ids/lists/${created.body.data.id}`);
  expect(created.body.data).toMatchObject({ status: 'pending', total: 1_000, answered: 0, finished_at: null });

  const list = await done(created.body.data.id);
  expect(list).toMatchObject({ status: 'done', total: 1_000, answered: 1_000 });
  // Ten pages, as the answers of a full list are ten pages of the largest size.
  const results = await allResults(list.id, 100);
  expect(results).toHaveLength(1_000);
  expect(results.map((r) => r.line)).toEqual(Array.from({ length: 1_000 }, (_, i) => i + 1));
  expect(results.filter((r) => r.result === 'valid')).toHaveLength(999);
  expect(results[432]).toMatchObject({ nif: middle, result: 'valid', detail: 'identified', source: 'aeat_census' });
  expect(results[999]).toMatchObject({ nif: gone, result: 'invalid', detail: 'deregistered' });
  // The failed request and the row not processed asked again; the second names of 49 NIFs in a request of their own.
  expect(env.sim.state.counters.censusRequests - before).toBe(4);
  expect(env.sim.state.counters.faults).toMatchObject({ http500Empty: 1, censusRepeatedRows: 1, censusNotProcessed: 1 });

  await waitUntil(async () => receiver.received.some((w) => w.type === 'tax_id_list.completed'), 'the completed event');
  const [event] = receiver.received.filter((w) => w.type === 'tax_id_list.completed');
  expect(event).toMatchObject({ verified: true, data: { list_id: list.id, status: 'done', total: 1_000, answered: 1_000 } });
}, 120_000);

test('takes a CSV with NIFs and VAT numbers, and gives the answers back as CSV', async () => {
  const nif = testNif(2_000_001);
  const csv = `\uFEFFtax_id;name\r\n${nif};"Pérez Martín; José"\r\nDE100;\r\nNL301;\r\n`;
  const created = await api().post('/api/v1/tax-ids/lists').set(party.account.auth).set('Content-Type', 'text/csv').send(csv).expect(202);
  const list = await done(created.body.data.id);
  expect(await allResults(list.id)).toEqual([
    expect.objectContaining({ line: 1, nif, result: 'valid', source: 'aeat_census' }),
    expect.objectContaining({ line: 2, vat_number: 'DE100', result: 'valid', source: 'vies' }),
    expect.objectContaining({ line: 3, vat_number: 'NL301', result: 'unknown', fault_code: 'MS_UNAVAILABLE' }),
  ]);
  const out = await api().get(`/api/v1/tax-ids/lists/${list.id}/results.csv`).set(party.account.auth).buffer(true).expect(200);
  expect(out.headers['content-type']).toMatch(/^text\/csv/);
  const lines = out.text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe('line;tax_id;result;detail;census_name;fault_code;request_identifier;source;checked_at');
  expect(lines.slice(1).map((l) => l.split(';').slice(0, 4).join(';'))).toEqual([
    `1;${nif};valid;identified`,
    '2;DE100;valid;identified',
    '3;NL301;unknown;not_processed',
  ]);
}, 60_000);

test('refuses a list with one bad row whole, and keeps lists apart between accounts', async () => {
  const bad = await api()
    .post('/api/v1/tax-ids/lists')
    .set(party.account.auth)
    .send({
      tax_ids: [
        { nif: testNif(3), name: 'A' },
        { nif: '12345678A', name: 'B' },
      ],
    })
    .expect(422);
  expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'tax_ids.1' })]);
  const noHeader = await api()
    .post('/api/v1/tax-ids/lists')
    .set(party.account.auth)
    .set('Content-Type', 'text/csv')
    .send('89000003T;A\n')
    .expect(422);
  expect(noHeader.body.code).toBe('validation_failed');
  const tooMany = Array.from({ length: 10_001 }, (_, i) => ({ vat_number: `DE${100 + i}` }));
  expect((await api().post('/api/v1/tax-ids/lists').set(party.account.auth).send({ tax_ids: tooMany })).status).toBeGreaterThanOrEqual(413);
  const mine = await api()
    .post('/api/v1/tax-ids/lists')
    .set(party.account.auth)
    .send({ tax_ids: [{ vat_number: 'DE100' }] })
    .expect(202);
  const other = await env.party();
  await api().get(`/api/v1/tax-ids/lists/${mine.body.data.id}`).set(other.account.auth).expect(404);
  await api().get(`/api/v1/tax-ids/lists/${mine.body.data.id}/results.csv`).set(other.account.auth).expect(404);
});
