import type { Client } from 'pg';
import { databaseBeforeMigration } from './testing/database-before-migration';

// Migration 0005 moves each taxpayer's send_states row to its chains: a database with a taxpayer-keyed row, built by
// the migrations before it, then 0005 applied on top.
const TAG = '0005_chain_send_states';
const migration = databaseBeforeMigration(TAG);
let db: Client;

beforeAll(() => {
  db = migration.db;
});

async function one<T>(query: string, params: unknown[] = []): Promise<T> {
  return (await db.query(query, params)).rows[0] as T;
}

/** A taxpayer now in production with a sandbox chain too, one record in each; returns the ids. */
async function taxpayerWithTwoChains(nif: string) {
  const { account } = await one<{ account: string }>(
    `INSERT INTO accounts (name, email, password_hash, api_key_digest, api_key_hint, plan_id)
     VALUES ('n', $1, 'h', $1, 'vfk_', 'free') RETURNING id AS account`,
    [`${nif}@x.es`],
  );
  const { system } = await one<{ system: string }>(
    `INSERT INTO computer_systems (account_id, vendor_name, vendor_nif, name, version, installation_number, system_code)
     VALUES ($1, 'V', 'B85905495', 'S', '1', '1', 'S1') RETURNING id AS system`,
    [account],
  );
  const { taxpayer } = await one<{ taxpayer: string }>(
    `INSERT INTO taxpayers (account_id, nif, name, is_production) VALUES ($1, $2, 'T', true) RETURNING id AS taxpayer`,
    [account, nif],
  );
  const chain = async (isProduction: boolean) =>
    (
      await one<{ id: string }>(`INSERT INTO chains (taxpayer_id, nif, is_production) VALUES ($1, $2, $3) RETURNING id`, [
        taxpayer,
        nif,
        isProduction,
      ])
    ).id;
  const [sandbox, production] = [await chain(false), await chain(true)];
  const record = async (chainId: string, isProduction: boolean) =>
    (
      await one<{ id: string }>(
        `INSERT INTO invoices (id, invoice_id, current_record_id, chain_id, account_id, taxpayer_id, computer_system_id, chain_seq, invoice_number,
           invoice_date, invoice_type, description, total_amount, total_tax_amount, issuer_nif, issuer_name, system_snapshot, is_production,
           generated_at_literal, generated_at, hash, qr_url, authority_status)
         SELECT g, g, g, $1, $2, $3, $4, 1, 'N-1', '2025-01-01', 'F2', 'd', 1, 0, $5, 'T', '{}'::jsonb, $6,
           '2025-01-01T10:00:00+01:00', now(), repeat('A', 64), 'https://x', 'queued' FROM gen_random_uuid() g RETURNING id`,
        [chainId, account, taxpayer, system, nif, isProduction],
      )
    ).id;
  return {
    account,
    taxpayer,
    sandbox,
    production,
    sandboxRecord: await record(sandbox, false),
    productionRecord: await record(production, true),
  };
}

async function submission(taxpayer: string, invoiceId: string | null, startedAt: string): Promise<string> {
  const { id } = await one<{ id: string }>(
    `INSERT INTO submissions (taxpayer_id, outcome, worker_id, endpoint, certificate_mode, record_count, request_xml, started_at)
     VALUES ($1, 'transport_error', 'w', 'https://x', 'taxpayer', 1, '<x/>', $2) RETURNING id`,
    [taxpayer, startedAt],
  );
  if (invoiceId)
    await db.query(`INSERT INTO submission_invoices (submission_id, invoice_id, position) VALUES ($1, $2, 0)`, [id, invoiceId]);
  return id;
}

test('every chain of a taxpayer inherits its timing and lease; the failures stay with the chain the failing sends carried', async () => {
  const failing = await taxpayerWithTwoChains('89890001K');
  const older = await submission(failing.taxpayer, failing.sandboxRecord, '2026-03-02T08:00:00Z');
  const latest = await submission(failing.taxpayer, failing.productionRecord, '2026-03-02T08:30:00Z');
  await db.query(
    `INSERT INTO send_states (taxpayer_id, next_send_at, wait_seconds, last_send_at, consecutive_failures, failing_since, lease_owner, lease_until)
     VALUES ($1, '2026-03-02T09:00:00Z', 90, '2026-03-02T08:30:00Z', 4, '2026-03-02T08:00:00Z', 'w/1', '2026-03-02T08:31:00Z')`,
    [failing.taxpayer],
  );
  // No submission at all: the failures go to the chain of the taxpayer's current environment.
  const quiet = await taxpayerWithTwoChains('89890002E');
  await db.query(`INSERT INTO send_states (taxpayer_id, consecutive_failures, failing_since) VALUES ($1, 1, '2026-03-01T10:00:00Z')`, [
    quiet.taxpayer,
  ]);

  await migration.apply();

  const states = (await db.query(`SELECT * FROM send_states ORDER BY chain_id`)).rows;
  expect(states).toHaveLength(4);
  const of = (chainId: string) => states.find((s) => s.chain_id === chainId);
  const shared = {
    next_send_at: new Date('2026-03-02T09:00:00Z'),
    wait_seconds: 90,
    last_send_at: new Date('2026-03-02T08:30:00Z'),
    lease_owner: 'w/1',
  };
  expect(of(failing.production)).toMatchObject({ ...shared, consecutive_failures: 4, failing_since: new Date('2026-03-02T08:00:00Z') });
  expect(of(failing.sandbox)).toMatchObject({ ...shared, consecutive_failures: 0, failing_since: null });
  expect(of(quiet.production)).toMatchObject({ consecutive_failures: 1, failing_since: new Date('2026-03-01T10:00:00Z') });
  expect(of(quiet.sandbox)).toMatchObject({ consecutive_failures: 0, failing_since: null });

  const carried = (await db.query(`SELECT id, chain_id FROM submissions`)).rows;
  expect(Object.fromEntries(carried.map((s) => [s.id, s.chain_id]))).toEqual({ [older]: failing.sandbox, [latest]: failing.production });
});
