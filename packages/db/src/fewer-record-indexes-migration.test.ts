import type { Client } from 'pg';
import { databaseBeforeMigration, ONE_CHAIN } from './testing/database-before-migration';

// Migration 0036 drops the status events' own-id key and the index of current_record_id, and keeps only records not
// at rest in the chain index by status: an outbox row waiting for the relay, written before it by the trigger, names
// its event alone, and must name the event's record afterwards (the relay finds events by record and id); the trigger
// names both from then on.
const TAG = '0036_fewer_record_indexes';
const migration = databaseBeforeMigration(TAG);
let db: Client;

beforeAll(() => {
  db = migration.db;
});

async function record(): Promise<{ account: string; id: string }> {
  const { rows } = await db.query<{ account: string; id: string }>(`
    WITH ${ONE_CHAIN},
         i AS (INSERT INTO invoices (id, invoice_id, current_record_id, chain_id, account_id, taxpayer_id, computer_system_id,
                 chain_seq, invoice_number, invoice_date, invoice_type, description, total_amount, total_tax_amount, issuer_nif,
                 issuer_name, system_snapshot_id, is_production, generated_at_literal, generated_at, hash, authority_status)
               SELECT g, g, g, c.id, tp.account_id, tp.id, s.id, 1, 'A-1', '2025-01-31', 'F2', 'd', 121, 21, '89890001K', 'T',
                 gen_random_uuid(), false, '2025-01-31T10:00:00+01:00', now(), repeat('A', 64), 'sent'
               FROM gen_random_uuid() g, c, tp, s RETURNING id, account_id)
    SELECT account_id::text AS account, id::text FROM i`);
  return rows[0];
}

const event = async (invoiceId: string, status: string) =>
  (
    await db.query<{ id: string }>(`INSERT INTO invoice_status_events (invoice_id, status) VALUES ($1, $2) RETURNING id::text`, [
      invoiceId,
      status,
    ])
  ).rows[0].id;

const outbox = async () =>
  (
    await db.query<{ status_event_id: string | null; record_id: string | null }>(
      'SELECT status_event_id::text, record_id::text FROM webhook_outbox ORDER BY id',
    )
  ).rows;

it('names the record of every waiting event row, keys events by record and id, keeps the trigger naming both', async () => {
  const r = await record();
  await db.query(`INSERT INTO webhook_endpoints (account_id, url, events, secret) VALUES ($1, 'https://x.es/h', '[]', '\\x00')`, [
    r.account,
  ]);
  const sent = await event(r.id, 'sent');
  await db.query('INSERT INTO webhook_outbox (record_id) VALUES ($1)', [r.id]);
  expect(await outbox()).toEqual([
    { status_event_id: sent, record_id: null },
    { status_event_id: null, record_id: r.id },
  ]);

  await migration.apply();

  expect(await outbox()).toEqual([
    { status_event_id: sent, record_id: r.id },
    { status_event_id: null, record_id: r.id },
  ]);
  const accepted = await event(r.id, 'accepted');
  expect((await outbox())[2]).toEqual({ status_event_id: accepted, record_id: r.id });
  const { rows: key } = await db.query<{ def: string }>(
    `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'invoice_status_events_pkey'`,
  );
  expect(key).toEqual([{ def: 'PRIMARY KEY (invoice_id, id)' }]);
  const { rows: indexes } = await db.query<{ name: string }>(
    `SELECT indexname AS name FROM pg_indexes WHERE tablename IN ('invoices', 'invoice_status_events')
       AND indexname IN ('invoices_current_record_idx', 'invoice_status_events_invoice_idx')`,
  );
  expect(indexes).toEqual([]);
  const { rows: chainIndex } = await db.query<{ def: string }>(`SELECT pg_get_indexdef('invoices_chain_status_seq_idx'::regclass) AS def`);
  expect(chainIndex[0].def).toContain(
    `WHERE (authority_status <> ALL (ARRAY['accepted'::text, 'accepted_with_warnings'::text, 'rejected'::text, 'kept'::text]))`,
  );
});
