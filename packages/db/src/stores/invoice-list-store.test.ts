import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../testing';
import { EXACT_TOTAL_LIMIT, invoiceListStore } from './invoice-list-store';

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

/** A new account with one taxpayer whose chain holds `count` invoices, every 100th rejected; returns the account. */
async function accountWith(count: number): Promise<string> {
  const r = await t.db.execute(sql`
    WITH a AS (INSERT INTO accounts (name, email, password_hash, api_key_digest, api_key_hint, plan_id)
               VALUES ('n', ${randomUUID() + '@x.es'}, 'h', ${randomUUID()}, 'vfk_', 'free') RETURNING id),
         s AS (INSERT INTO computer_systems (account_id, vendor_name, vendor_nif, name, version, installation_number, system_code)
               SELECT id, 'V', 'B85905495', 'S', '1', '1', 'S1' FROM a RETURNING id),
         tp AS (INSERT INTO taxpayers (account_id, nif, name) SELECT id, left(md5(random()::text), 9), 'T' FROM a RETURNING id, nif, account_id),
         c AS (INSERT INTO chains (taxpayer_id, nif, is_production) SELECT id, nif, false FROM tp RETURNING id),
         g AS (SELECT gen_random_uuid() AS id, n FROM generate_series(1, ${count}) n),
         i AS (INSERT INTO invoices (id, invoice_id, current_record_id, chain_id, account_id, taxpayer_id, computer_system_id, chain_seq,
                 invoice_number, invoice_date, invoice_type, description, total_amount, total_tax_amount, issuer_nif, issuer_name,
                 system_snapshot_id, is_production, generated_at_literal, generated_at, hash, authority_status)
               SELECT g.id, g.id, g.id, c.id, tp.account_id, tp.id, s.id, g.n, 'M-' || g.n, '2025-01-01', 'F1', 'd', 1, 0, tp.nif, 'T',
                 gen_random_uuid(), false, '2025-01-01T10:00:00+01:00', now(), repeat('A', 64),
                 CASE WHEN g.n % 100 = 0 THEN 'rejected' ELSE 'accepted' END
               FROM g, c, tp, s RETURNING 1)
    SELECT (SELECT id FROM a) AS id, (SELECT count(*) FROM i) AS n`);
  await t.db.execute(sql`ANALYZE invoices`);
  return (r.rows[0] as { id: string }).id;
}

test('a total is exact up to the limit, and past it an estimate, above the limit and said to be one', async () => {
  const small = await accountWith(150);
  expect(await invoiceListStore.count(t.db, small, {})).toEqual({ total: 150, exact: true });
  expect(await invoiceListStore.count(t.db, small, { statuses: ['rejected'] })).toEqual({ total: 1, exact: true });

  const large = await accountWith(EXACT_TOTAL_LIMIT + 500);
  const all = await invoiceListStore.count(t.db, large, {});
  expect(all.exact).toBe(false);
  expect(all.total).toBeGreaterThan(EXACT_TOTAL_LIMIT);
  // A filter matching fewer than the limit is still counted exactly, whatever the account's size.
  expect(await invoiceListStore.count(t.db, large, { statuses: ['rejected'] })).toEqual({ total: 15, exact: true });
  expect(await invoiceListStore.count(t.db, large, { numberPrefix: 'M-14' })).toEqual({ total: 111, exact: true });
});
