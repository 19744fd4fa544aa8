import type { Client } from 'pg';
import { buildQrUrl, recordQrUrl, toAeatDate } from '@vf/core';
import { databaseBeforeMigration, ONE_CHAIN } from './testing/database-before-migration';

// Migration 0035 drops the QR URL kept with each record: what every reader now rebuilds from the record's columns
// must be the URL kept before, for records as the versions before it wrote them (URLs made by buildQrUrl as each
// record was generated), and a URL its columns do not make must stop the migration with nothing dropped.
const TAG = '0035_qr_url_rebuilt';
const migration = databaseBeforeMigration(TAG);
let db: Client;

let ids: { account: string; system: string; taxpayer: string; chain: string };
beforeAll(async () => {
  db = migration.db;
  const { rows } = await db.query<typeof ids>(`
    WITH ${ONE_CHAIN}
    SELECT tp.account_id AS account, s.id AS system, tp.id AS taxpayer, c.id AS chain FROM tp, s, c`);
  ids = rows[0];
});

interface Kept {
  number: string;
  date: string;
  total: string;
  production: boolean;
  noVerifactu: boolean;
}
const KEPT: Kept[] = [
  { number: 'A-1', date: '2025-01-31', total: '121.00', production: false, noVerifactu: false },
  { number: 'N/2026 #1 & mas+%', date: '2026-02-01', total: '-12.10', production: true, noVerifactu: false },
  { number: 'K ~/1? (b)', date: '2026-12-24', total: '0.00', production: false, noVerifactu: true },
  { number: 'P*2_x.y-z', date: '2026-03-05', total: '999999999999.99', production: true, noVerifactu: true },
];

async function insert(seq: number, r: Kept, qrUrl: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO invoices (id, invoice_id, current_record_id, chain_id, account_id, taxpayer_id, computer_system_id, chain_seq,
       invoice_number, invoice_date, invoice_type, description, total_amount, total_tax_amount, issuer_nif, issuer_name,
       system_snapshot_id, is_production, generated_at_literal, generated_at, hash, qr_url, authority_status)
     SELECT g, g, g, $1, $2, $3, $4, $5, $6, $7, 'F2', 'd', $8, 0, '89890001K', 'T', gen_random_uuid(), $9,
       '2025-01-01T10:00:00+01:00', now(), repeat('A', 64), $10, $11 FROM gen_random_uuid() g RETURNING id`,
    [
      ids.chain,
      ids.account,
      ids.taxpayer,
      ids.system,
      seq,
      r.number,
      r.date,
      r.total,
      r.production,
      qrUrl,
      r.noVerifactu ? 'kept' : 'queued',
    ],
  );
  return rows[0].id;
}
const generatedUrl = (r: Kept) =>
  buildQrUrl({ nif: '89890001K', invoiceNumber: r.number, invoiceDate: toAeatDate(r.date), total: r.total }, r);

it('refuses to drop a URL the record does not make, keeping everything', async () => {
  await db.query('BEGIN');
  try {
    await insert(1, KEPT[0], generatedUrl(KEPT[0]));
    await insert(2, KEPT[1], generatedUrl(KEPT[1]).replace('importe=-12.10', 'importe=-12.1'));
    await expect(migration.apply()).rejects.toThrow(/is not the one its columns make: nothing was dropped/);
  } finally {
    await db.query('ROLLBACK');
  }
  const column = await db.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'invoices' AND column_name = 'qr_url'`);
  expect(column.rowCount).toBe(1);
});

it('drops the URLs, and every record rebuilds the very URL it kept; the first status events only the record says go', async () => {
  const kept = new Map<string, string>();
  for (const [i, r] of KEPT.entries()) {
    const url = generatedUrl(r);
    kept.set(await insert(i + 1, r, url), url);
  }
  const events = await writeEvents([...kept.keys()]);
  await migration.apply();
  await expectEventsImplied([...kept.keys()], events);

  const { rows } = await db.query<{
    id: string;
    issuerNif: string;
    invoiceNumber: string;
    invoiceDate: string;
    totalAmount: string;
    isProduction: boolean;
    qrNoVerifactu: boolean | null;
  }>(`SELECT id, issuer_nif AS "issuerNif", invoice_number AS "invoiceNumber", to_char(invoice_date, 'YYYY-MM-DD') AS "invoiceDate",
        total_amount::text AS "totalAmount", is_production AS "isProduction", qr_no_verifactu AS "qrNoVerifactu" FROM invoices`);
  expect(rows).toHaveLength(KEPT.length);
  for (const row of rows) expect({ id: row.id, url: recordQrUrl(row) }).toEqual({ id: row.id, url: kept.get(row.id) });
  // Only NO VERI*FACTU's records carry the flag; the others keep a NULL, which costs the row nothing.
  expect(rows.filter((r) => r.qrNoVerifactu !== null).every((r) => r.qrNoVerifactu === true)).toBe(true);
  expect(rows.filter((r) => r.qrNoVerifactu).length).toBe(KEPT.filter((r) => r.noVerifactu).length);
  const column = await db.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'invoices' AND column_name = 'qr_url'`);
  expect(column.rowCount).toBe(0);
});

/** Each record's first event as the append wrote it, a later one, an odd first one and an outbox row not yet relayed. */
async function writeEvents(ids: string[]): Promise<{ sent: string; odd: string }> {
  const event = async (id: string, status: string, at: string) =>
    (
      await db.query<{ id: string }>(
        `INSERT INTO invoice_status_events (invoice_id, status, at) SELECT id, $2, ${at} FROM invoices WHERE id = $1 RETURNING id::text`,
        [id, status],
      )
    ).rows[0].id;
  const first = await event(ids[0], 'queued', 'created_at');
  const sent = await event(ids[0], 'sent', "created_at + interval '1 second'");
  // Not at its record's creation time: not what the append writes, so it stays.
  const odd = await event(ids[1], 'queued', "created_at - interval '1 second'");
  await event(ids[2], 'kept', 'created_at');
  await db.query('INSERT INTO webhook_outbox (status_event_id) VALUES ($1), ($2)', [first, sent]);
  return { sent, odd };
}

async function expectEventsImplied(ids: string[], kept: { sent: string; odd: string }): Promise<void> {
  const { rows: events } = await db.query<{ id: string }>('SELECT id::text FROM invoice_status_events ORDER BY id');
  expect(events.map((e) => e.id)).toEqual([kept.sent, kept.odd]);
  const { rows: outbox } = await db.query<{ status_event_id: string | null; record_id: string | null }>(
    'SELECT status_event_id::text, record_id::text FROM webhook_outbox ORDER BY id',
  );
  expect(outbox).toEqual([
    { status_event_id: null, record_id: ids[0] },
    { status_event_id: kept.sent, record_id: null },
  ]);
}
