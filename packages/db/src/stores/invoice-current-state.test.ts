import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../testing';
import { invoiceStateStore } from './invoice-state-store';
import { invoiceStatisticsStore } from './invoice-statistics-store';

// The overview's counts and latest problems are read from the invoices' first rows, which keep their current record's
// status and type: an invoice counts once, in its current record's status, and a superseded record's refusal is no
// longer a problem.
let t: TestDatabase;
let account: string;
const ids: Record<'plain' | 'corrected' | 'refusedCorrection' | 'correction' | 'secondCorrection', string> = {
  plain: randomUUID(),
  corrected: randomUUID(),
  refusedCorrection: randomUUID(),
  correction: randomUUID(),
  secondCorrection: randomUUID(),
};

beforeAll(async () => {
  t = await createTestDatabase();
  const { rows } = await t.db.execute<{ id: string }>(sql`
    WITH a AS (INSERT INTO accounts (name, email, password_hash, api_key_digest, api_key_hint, plan_id)
               VALUES ('n', ${randomUUID() + '@x.es'}, 'h', ${randomUUID()}, 'vfk_', 'free') RETURNING id),
         s AS (INSERT INTO computer_systems (account_id, vendor_name, vendor_nif, name, version, installation_number, system_code)
               SELECT id, 'V', 'B85905495', 'S', '1', '1', 'S1' FROM a RETURNING id),
         tp AS (INSERT INTO taxpayers (account_id, nif, name) SELECT id, '89890001K', 'T' FROM a RETURNING id, nif, account_id),
         c AS (INSERT INTO chains (taxpayer_id, nif, is_production) SELECT id, nif, false FROM tp RETURNING id),
         r (id, invoice_id, seq, number, type, status, updated) AS (VALUES
           (${ids.plain}::uuid, ${ids.plain}::uuid, 1, 'P-1', 'F1', 'rejected', timestamptz '2025-03-01 10:00+01'),
           (${ids.corrected}::uuid, ${ids.corrected}::uuid, 2, 'P-2', 'F1', 'rejected', timestamptz '2025-03-01 11:00+01'),
           (${ids.refusedCorrection}::uuid, ${ids.refusedCorrection}::uuid, 3, 'P-3', 'F1', 'accepted', timestamptz '2025-03-01 09:00+01'),
           (${ids.correction}::uuid, ${ids.corrected}::uuid, 4, 'P-2', 'R1', 'queued', timestamptz '2025-03-01 12:00+01'),
           (${ids.secondCorrection}::uuid, ${ids.refusedCorrection}::uuid, 5, 'P-3', 'R1', 'queued', timestamptz '2025-03-01 08:00+01')),
         i AS (INSERT INTO invoices (id, invoice_id, current_record_id, chain_id, account_id, taxpayer_id, computer_system_id, chain_seq,
                 invoice_number, invoice_date, invoice_type, description, total_amount, total_tax_amount, issuer_nif, issuer_name,
                 system_snapshot_id, is_production, generated_at_literal, generated_at, hash, authority_status, updated_at,
                 current_invoice_type)
               SELECT r.id, r.invoice_id, CASE WHEN r.id = r.invoice_id THEN coalesce(
                   (SELECT l.id FROM r l WHERE l.invoice_id = r.id AND l.id <> r.id), r.id) END,
                 c.id, tp.account_id, tp.id, s.id, r.seq, r.number, '2025-03-01', r.type, 'd', 121, 21, tp.nif, 'T',
                 gen_random_uuid(), false, '2025-03-01T10:00:00+01:00', now(), repeat('A', 64), r.status, r.updated,
                 CASE WHEN r.id = r.invoice_id AND EXISTS (SELECT 1 FROM r l WHERE l.invoice_id = r.id AND l.id <> r.id) THEN 'R1' END
               FROM r, c, tp, s RETURNING 1)
    SELECT (SELECT id FROM a) AS id, (SELECT count(*) FROM i) AS n`);
  account = rows[0].id;
  // The authority's answers to the corrections, through the trigger that keeps the current status on the first row.
  await t.db.execute(sql`UPDATE invoices SET authority_status = 'accepted' WHERE id = ${ids.correction}`);
  await t.db.execute(
    sql`UPDATE invoices SET authority_status = 'rejected', updated_at = '2025-03-01 13:00+01' WHERE id = ${ids.secondCorrection}`,
  );
});
afterAll(async () => {
  await t.destroy();
});

test('each invoice is counted once, in its current record status and type', async () => {
  const counts = await invoiceStatisticsStore.countsByStatus(t.db, account);
  expect(counts.map((c) => ({ ...c, n: Number(c.n) })).sort((a, b) => a.status.localeCompare(b.status))).toEqual([
    { status: 'accepted', corrective: true, n: 1 },
    { status: 'rejected', corrective: false, n: 1 },
    { status: 'rejected', corrective: true, n: 1 },
  ]);
});

test("the latest problems are the invoices whose current record is refused, latest first, with that record's data", async () => {
  const problems = await invoiceStateStore.latestProblems(t.db, account, 10);
  expect(problems.map((p) => ({ id: p.id, type: p.invoiceType, status: p.status }))).toEqual([
    { id: ids.refusedCorrection, type: 'R1', status: 'rejected' },
    { id: ids.plain, type: 'F1', status: 'rejected' },
  ]);
  expect((await invoiceStateStore.latestProblems(t.db, account, 1)).map((p) => p.id)).toEqual([ids.refusedCorrection]);
});
