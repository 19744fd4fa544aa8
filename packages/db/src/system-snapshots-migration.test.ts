import type { Client } from 'pg';
import { databaseBeforeMigration, ONE_CHAIN } from './testing/database-before-migration';

// Migration 0031 moves each record's SistemaInformatico block to system_snapshots: a database with records as the
// versions before it kept them, built by the migrations before it, then 0031 applied on top.
const TAG = '0031_system_snapshots_kept_once';
const migration = databaseBeforeMigration(TAG);
let db: Client;

beforeAll(() => {
  db = migration.db;
});

const block = (version: string) => ({
  NombreRazon: 'Vendedor SL',
  NIF: 'B85905495',
  NombreSistemaInformatico: 'Caja',
  IdSistemaInformatico: 'S1',
  Version: version,
  NumeroInstalacion: '1',
  TipoUsoPosibleSoloVerifactu: 'S',
  TipoUsoPosibleMultiOT: 'S',
  IndicadorMultiplesOT: 'N',
});

it('keeps each distinct block once and every record reads the block it was generated with', async () => {
  const {
    rows: [{ account, system, chain, taxpayer }],
  } = await db.query<{ account: string; system: string; chain: string; taxpayer: string }>(`
    WITH ${ONE_CHAIN}
    SELECT tp.account_id AS account, s.id AS system, c.id AS chain, tp.id AS taxpayer FROM tp, s, c`);
  const versions = ['1.0', '1.0', '2.0'];
  for (const [i, version] of versions.entries()) {
    await db.query(
      `INSERT INTO invoices (id, invoice_id, current_record_id, chain_id, account_id, taxpayer_id, computer_system_id, chain_seq,
         invoice_number, invoice_date, invoice_type, description, total_amount, total_tax_amount, issuer_nif, issuer_name,
         system_snapshot, is_production, generated_at_literal, generated_at, hash, qr_url, authority_status)
       SELECT g, g, g, $1, $2, $3, $4, $5, $6, '2025-01-01', 'F2', 'd', 1, 0, '89890001K', 'T', $7::jsonb, false,
         '2025-01-01T10:00:00+01:00', now(), repeat('A', 64), 'https://x', 'queued' FROM gen_random_uuid() g`,
      [chain, account, taxpayer, system, i + 1, `N-${i + 1}`, JSON.stringify(block(version))],
    );
  }

  await migration.apply();

  const kept = await db.query<{ n: string }>('SELECT count(*) AS n FROM system_snapshots');
  expect(Number(kept.rows[0].n)).toBe(2);
  const read = await db.query<{ snapshot: ReturnType<typeof block> }>(
    `SELECT s.snapshot FROM invoices i JOIN system_snapshots s ON s.id = i.system_snapshot_id ORDER BY i.chain_seq`,
  );
  expect(read.rows.map((r) => r.snapshot)).toEqual(versions.map(block));
  const column = await db.query(
    `SELECT 1 FROM information_schema.columns WHERE table_name = 'invoices' AND column_name = 'system_snapshot'`,
  );
  expect(column.rowCount).toBe(0);
});
