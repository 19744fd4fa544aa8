import { sql } from 'drizzle-orm';
import request from 'supertest';
import { madridToday } from '@vf/core';
import { invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

// What a taxpayer does with "its chain" (its operating mode, a remission on the authority's request) is done with its
// real chain: its scenario chain, the simulator's alone, is never the one taken, whichever row the database reads first.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/**
 * The real chain's row written again after the scenario chain's, while still empty: a query that does not say which of
 * the taxpayer's chains it wants then meets the scenario chain first, in the table and in its index alike.
 */
async function realChainAfterScenarioChain(taxpayerId: string) {
  await t.db.db.transaction(async (tx) => {
    await tx.execute(
      sql`CREATE TEMP TABLE real_chain ON COMMIT DROP AS SELECT * FROM chains WHERE taxpayer_id = ${taxpayerId} AND NOT scenario`,
    );
    await tx.execute(sql`DELETE FROM chains WHERE id IN (SELECT id FROM real_chain)`);
    await tx.execute(sql`INSERT INTO chains SELECT * FROM real_chain`);
  });
}

/** A sandbox taxpayer with a scenario record, then a real one. */
async function taxpayerWithBothChains() {
  const ready = await readyAccount(t.app);
  const register = (scenario?: string) => {
    const call = request(t.app).post('/api/v1/invoices').set(ready.account.auth);
    return (scenario ? call.set('Sandbox-Scenario', scenario) : call).send(invoiceBody(ready.taxpayerId, ready.systemId)).expect(201);
  };
  const scenario = (await register('accepted')).body.data.id as string;
  await realChainAfterScenarioChain(ready.taxpayerId);
  const real = (await register()).body.data.id as string;
  return { ...ready, scenario, real };
}

async function chainsOf(taxpayerId: string) {
  const { rows } = await t.db.db.execute<{ scenario: boolean; mode_version: number }>(
    sql`SELECT scenario, mode_version FROM chains WHERE taxpayer_id = ${taxpayerId} ORDER BY scenario`,
  );
  return rows;
}

test('an operating mode is the real chain’s, never the scenario chain’s', async () => {
  const { account, taxpayerId } = await taxpayerWithBothChains();
  const before = await chainsOf(taxpayerId);
  // Having sent in VERI*FACTU this year, the taxpayer leaves it at the year's end: the change is the real chain's.
  await request(t.app).put(`/api/v1/taxpayers/${taxpayerId}`).set(account.auth).send({ operating_mode: 'no_verifactu' }).expect(200);
  const after = await chainsOf(taxpayerId);
  expect(after.map((c) => [c.scenario, c.mode_version - before.find((b) => b.scenario === c.scenario)!.mode_version])).toEqual([
    [false, 1],
    [true, 0],
  ]);
});

test('a remission takes the records of the real chain, never a scenario record', async () => {
  const { account, taxpayerId, scenario, real } = await taxpayerWithBothChains();
  await t.db.db.execute(
    sql`INSERT INTO signed_records (invoice_id, xml) SELECT id, '<sum1:RegistroAlta/>' FROM invoices WHERE taxpayer_id = ${taxpayerId}`,
  );
  const today = madridToday();
  const started = await request(t.app)
    .post(`/api/v1/taxpayers/${taxpayerId}/remissions`)
    .set(account.auth)
    .send({ requirement_reference: 'REQ2026A1', period: { from: today, to: today } })
    .expect(202);
  expect(started.body.data.record_count).toBe(1);
  const { rows } = await t.db.db.execute<{ invoice_ids: string[] }>(
    sql`SELECT invoice_ids FROM remission_messages WHERE remission_id = ${started.body.data.id}`,
  );
  expect(rows.flatMap((r) => r.invoice_ids)).toEqual([real]);
  expect(rows.flatMap((r) => r.invoice_ids)).not.toContain(scenario);
});
