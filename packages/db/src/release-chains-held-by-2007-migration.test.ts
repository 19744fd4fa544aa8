import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_FOLDER } from './migrate';
import { sendStateStore } from './stores';
import { createTestDatabase, type TestDatabase } from './testing';

// Migration 0016 releases what earlier versions held behind a 2007: a database with chains as those versions left
// them, then the migration's statements run on it.
const TAG = '0016_release_chains_held_by_2007';
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

async function applyMigration(): Promise<void> {
  const text = readFileSync(path.join(MIGRATIONS_FOLDER, `${TAG}.sql`), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) await t.pool.query(statement);
}

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return (await t.db.execute(query)).rows as T[];
}

/** An account with a webhook endpoint, a taxpayer and its sandbox chain; returns the chain. */
async function chain(nif: string): Promise<string> {
  const [c] = await rows<{ id: string }>(sql`
    WITH a AS (INSERT INTO accounts (name, email, password_hash, api_key_digest, api_key_hint, plan_id)
               VALUES ('n', ${nif + '@x.es'}, 'h', ${nif}, 'vfk_', 'free') RETURNING id),
         w AS (INSERT INTO webhook_endpoints (account_id, url, events, secret)
               SELECT id, 'https://hooks.example/x', '["invoice.accepted"]'::jsonb, '\\x00'::bytea FROM a),
         s AS (INSERT INTO computer_systems (account_id, vendor_name, vendor_nif, name, version, installation_number, system_code)
               SELECT id, 'V', 'B85905495', 'S', '1', '1', 'S1' FROM a),
         tp AS (INSERT INTO taxpayers (account_id, nif, name) SELECT id, ${nif}, 'T' FROM a RETURNING id, nif)
    INSERT INTO chains (taxpayer_id, nif, is_production) SELECT id, nif, false FROM tp RETURNING id`);
  return c.id;
}

interface Held {
  status: 'error' | 'accepted';
  code?: number;
  message?: string;
  cause?: string;
}

/** The chain's records, in order, as an earlier version left them. */
async function records(chainId: string, held: Held[]): Promise<void> {
  for (const [i, r] of held.entries()) {
    await t.db.execute(sql`
      INSERT INTO invoices (id, invoice_id, current_record_id, chain_id, account_id, taxpayer_id, computer_system_id, chain_seq,
        invoice_number, invoice_date, invoice_type, description, total_amount, total_tax_amount, issuer_nif, issuer_name,
        system_snapshot_id, is_production, generated_at_literal, generated_at, hash, authority_status, authority_code,
        authority_message, authority_csv, error_cause, last_error)
      SELECT g, g, g, c.id, tp.account_id, tp.id, cs.id, ${i + 1}, ${`N-${i + 1}`}, '2025-01-01', 'F2', 'd', 1, 0, c.nif, 'T',
        gen_random_uuid(), false, '2025-01-01T10:00:00+01:00', now(), repeat('A', 64), ${r.status}, ${r.code ?? null},
        ${r.message ?? null}, ${r.code === 2007 ? 'CSV-1' : null}, ${r.cause ?? null}, ${r.status === 'error' ? 'held' : null}
      FROM gen_random_uuid() g, chains c JOIN taxpayers tp ON tp.id = c.taxpayer_id JOIN computer_systems cs ON cs.account_id = tp.account_id
      WHERE c.id = ${chainId}`);
  }
}

const STORED_2007: Held = { status: 'error', code: 2007, message: 'No debe informarse como primer registro' };
const WAITING: Held = { status: 'error', cause: 'waiting_for_earlier_record' };

async function statuses(chainId: string) {
  return rows<{ seq: number; status: string; code: number | null; message: string | null; csv: string | null; cause: string | null }>(sql`
    SELECT chain_seq AS seq, authority_status AS status, authority_code AS code, authority_message AS message,
      authority_csv AS csv, error_cause AS cause
    FROM invoices WHERE chain_id = ${chainId} ORDER BY chain_seq`);
}

async function history(chainId: string) {
  return rows<{ seq: number; status: string; code: number | null; message: string; outboxed: boolean }>(sql`
    SELECT i.chain_seq AS seq, e.status, e.code, e.message,
      EXISTS (SELECT 1 FROM webhook_outbox o WHERE o.status_event_id = e.id) AS outboxed
    FROM invoice_status_events e JOIN invoices i ON i.id = e.invoice_id WHERE i.chain_id = ${chainId} ORDER BY e.id`);
}

test('a record held in error with 2007 is registered with its warning, and the records held behind it go to the queue', async () => {
  const released = await chain('89890001K');
  await records(released, [{ status: 'accepted' }, STORED_2007, WAITING, WAITING]);
  // A chain held behind another cause before its 2007: its waiting records stay where they are.
  const stillHeld = await chain('89890002E');
  await records(stillHeld, [STORED_2007, { status: 'error', code: 4112, message: 'certificado' }, WAITING]);
  const untouched = await chain('89890003T');
  await records(untouched, [{ status: 'error', cause: 'certificate_expired' }, WAITING]);

  await applyMigration();

  expect(await statuses(released)).toEqual([
    { seq: 1, status: 'accepted', code: null, message: null, csv: null, cause: null },
    { seq: 2, status: 'accepted_with_warnings', code: 2007, message: STORED_2007.message, csv: 'CSV-1', cause: null },
    { seq: 3, status: 'queued', code: null, message: null, csv: null, cause: null },
    { seq: 4, status: 'queued', code: null, message: null, csv: null, cause: null },
  ]);
  // Each move is in the history, and so reaches the account's webhooks as any status change does.
  expect(await history(released)).toEqual([
    { seq: 2, status: 'accepted_with_warnings', code: 2007, message: `accepted with errors: 2007 ${STORED_2007.message}`, outboxed: true },
    ...[3, 4].map((seq) => ({
      seq,
      status: 'queued',
      code: null,
      message: 'the earlier record was registered by the authority with 2007 and no longer holds the chain: sent again',
      outboxed: true,
    })),
  ]);
  expect((await statuses(stillHeld)).map((r) => [r.status, r.code ?? r.cause])).toEqual([
    ['accepted_with_warnings', 2007],
    ['error', 4112],
    ['error', 'waiting_for_earlier_record'],
  ]);
  expect((await statuses(untouched)).map((r) => r.status)).toEqual(['error', 'error']);
  // The reconciler gives the released chain its job: its records are the workers' again.
  const toSend = await sendStateStore.chainsToSend(t.db, '00000000-0000-0000-0000-000000000000', 100);
  expect(toSend).toContain(released);
  expect(toSend).not.toContain(stillHeld);
  expect(toSend).not.toContain(untouched);
});
