import request from 'supertest';
import { sql } from 'drizzle-orm';
import { invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { createSignerPolicy } from '../verification/signer-policy';
import { createChainVerificationService } from './chain-verification-service';

// A chain walked in pages of 7 (the service reads 1,000 a statement), with the next page read while one is walked: the
// page boundaries, ranges across them and a break on a later page must give what one long page would.

const RECORDS = 30;
let t: TestApp;
let accountId: string;
let nif: string;
let taxpayerId: string;
const service = () => createChainVerificationService({ db: t.db.db, signers: createSignerPolicy(undefined), pageSize: 7 });

beforeAll(async () => {
  t = await createTestApp();
  const ready = await readyAccount(t.app);
  taxpayerId = ready.taxpayerId;
  for (let i = 0; i < RECORDS; i += 1)
    await request(t.app).post('/api/v1/invoices').set(ready.account.auth).send(invoiceBody(ready.taxpayerId, ready.systemId)).expect(201);
  const row = await t.db.db.execute<{ account_id: string; nif: string }>(
    sql`SELECT account_id, nif FROM taxpayers WHERE id = ${ready.taxpayerId}`,
  );
  ({ account_id: accountId, nif } = row.rows[0]);
});
afterAll(() => t.close());

it('verifies a chain of several pages whole, and ranges that start, end or lie inside a page', async () => {
  expect(await service().verifyByNif(accountId, nif, undefined, {})).toMatchObject({ ok: true, from: 1, verified: RECORDS });
  for (const [from, to] of [
    [1, 7],
    [7, 8],
    [8, 14],
    [5, 23],
    [22, 30],
    [29, undefined],
  ] as const) {
    const range = { from, ...(to !== undefined ? { to } : {}) };
    expect(await service().verifyByNif(accountId, nif, undefined, range)).toMatchObject({
      ok: true,
      from,
      verified: (to ?? RECORDS) - from + 1,
    });
  }
});

it('stops at a broken link on a later page and names it, whatever page is being read ahead', async () => {
  await t.db.db.execute(sql`UPDATE invoices SET hash = repeat('0', 64) WHERE taxpayer_id = ${taxpayerId} AND chain_seq = 17`);
  const result = await service().verifyByNif(accountId, nif, undefined, {});
  expect(result).toMatchObject({ ok: false, verified: 16, break: { position: 17 } });
  expect(result.break!.problem).toMatch(/does not match the hash recomputed/);
  // The walk goes on being answered after a read ahead was left behind.
  expect(await service().verifyByNif(accountId, nif, undefined, { to: 10 })).toMatchObject({ ok: true, verified: 10 });
});

it('does not verify a chain for an account that does not hold its NIF', async () => {
  const other = await readyAccount(t.app);
  const otherAccount = (await t.db.db.execute<{ account_id: string }>(sql`SELECT account_id FROM taxpayers WHERE id = ${other.taxpayerId}`))
    .rows[0].account_id;
  await expect(service().verifyByNif(otherAccount, nif, undefined, {})).rejects.toMatchObject({ code: 'chain_not_found' });
});
