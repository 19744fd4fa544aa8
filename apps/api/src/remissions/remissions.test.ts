import { sql } from 'drizzle-orm';
import request from 'supertest';
import { madridToday } from '@vf/core';
import { remissionJobId } from '@vf/queue';
import { invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const today = madridToday();
const body = (patch: Record<string, unknown> = {}) => ({
  requirement_reference: 'REQ2026A1',
  period: { from: today, to: today },
  ...patch,
});

async function taxpayerWithRecords(count: number) {
  const ready = await readyAccount(t.app);
  for (let i = 0; i < count; i += 1) {
    await request(t.app).post('/api/v1/invoices').set(ready.account.auth).send(invoiceBody(ready.taxpayerId, ready.systemId)).expect(201);
  }
  return ready;
}

/** The records' signatures as a NO VERI*FACTU system keeps them (their bytes do not matter to planning). */
async function keepSignatures(taxpayerId: string): Promise<void> {
  await t.db.db.execute(
    sql`INSERT INTO signed_records (invoice_id, xml) SELECT id, '<sum1:RegistroAlta/>' FROM invoices WHERE taxpayer_id = ${taxpayerId}`,
  );
}

test('a remission starts for the signed records of the period, queued for the workers, and is followed by GET', async () => {
  const { account, taxpayerId } = await taxpayerWithRecords(3);
  const unsigned = await request(t.app).post(`/api/v1/taxpayers/${taxpayerId}/remissions`).set(account.auth).send(body()).expect(409);
  expect(unsigned.body).toMatchObject({ code: 'records_not_signed' });
  expect(unsigned.body.detail).toMatch(/^3 record/);

  await keepSignatures(taxpayerId);
  const keyed = () =>
    request(t.app)
      .post(`/api/v1/taxpayers/${taxpayerId}/remissions`)
      .set(account.auth)
      .set('Idempotency-Key', `rem-${taxpayerId}`)
      .send(body());
  const started = await keyed().expect(202);
  const remission = started.body.data;
  expect(started.headers.location).toBe(`/api/v1/taxpayers/${taxpayerId}/remissions/${remission.id}`);
  expect(remission).toMatchObject({
    environment: 'sandbox',
    requirement_reference: 'REQ2026A1',
    status: 'sending',
    record_count: 3,
    message_count: 1,
    messages_answered: 0,
    error: null,
  });
  expect(remission.messages).toEqual([expect.objectContaining({ seq: 1, record_count: 3, last: true, status: 'waiting', attempts: 0 })]);
  expect(await t.queues.remission.getJob(remissionJobId(remission.id))).toBeDefined();

  const again = await request(t.app).post(`/api/v1/taxpayers/${taxpayerId}/remissions`).set(account.auth).send(body()).expect(409);
  expect(again.body.code).toBe('remission_in_progress');
  // Its own retry with its Idempotency-Key gets its answer again, never remission_in_progress.
  const retried = await keyed().expect(202);
  expect(retried.headers['idempotent-replayed']).toBe('true');
  expect(retried.body).toEqual(started.body);
  const read = await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}/remissions/${remission.id}`).set(account.auth).expect(200);
  expect(read.body.data).toEqual(remission);
  const list = await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}/remissions`).set(account.auth).expect(200);
  expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([remission.id]);
  expect(list.body.data[0].messages).toBeUndefined();
});

test('what cannot start is refused, nothing written: a bad reference, an empty period, another account’s taxpayer', async () => {
  const { account, taxpayerId } = await taxpayerWithRecords(1);
  await keepSignatures(taxpayerId);
  const post = (b: unknown, who = account) =>
    request(t.app)
      .post(`/api/v1/taxpayers/${taxpayerId}/remissions`)
      .set(who.auth)
      .send(b as object);
  expect((await post(body({ requirement_reference: 'REQ-1' })).expect(422)).body.code).toBe('validation_failed');
  expect((await post(body({ requirement_reference: 'R'.repeat(19) })).expect(422)).body.code).toBe('validation_failed');
  expect((await post(body({ period: { from: today, to: '2000-01-01' } })).expect(422)).body.code).toBe('validation_failed');
  expect((await post(body({ period: { from: '2001-01-01', to: '2001-12-31' } })).expect(422)).body.code).toBe('no_records_in_period');
  const stranger = await readyAccount(t.app);
  expect((await post(body(), stranger.account).expect(404)).body.code).toBe('taxpayer_not_found');
  const none = await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}/remissions`).set(account.auth).expect(200);
  expect(none.body.data).toEqual([]);
  await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}/remissions/00000000-0000-4000-8000-000000000000`).set(account.auth).expect(404);
  await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}/remissions`).set(stranger.account.auth).expect(404);
});
