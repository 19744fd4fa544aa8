import type { Pool } from 'pg';
import { v7 } from 'uuid';
import { computeRegistrationHash, toAeatDate } from '@vf/core';

/** Rows written a statement: about 10 MB of parameters. */
const CHUNK = 20_000;
const DAY_MS = 86_400_000;
/** Invoices a day: a year of them at a million. */
const INVOICES_A_DAY = 2740;

/** What varies from one filled record to the next; everything else is the template record's. */
interface FilledRecord {
  id: string;
  seq: number;
  number: string;
  date: string;
  base: string;
  tax: string;
  total: string;
  status: 'accepted' | 'rejected' | 'queued';
  recipientNif: string;
  literal: string;
  at: string;
  hash: string;
  previousHash: string;
  previousId: string;
}

/** Recipient n of the 1,000 the filled invoices go to: a DNI-type NIF with its check letter. */
export function recipientNifOf(n: number): string {
  const digits = 10_000_000 + n;
  return `${digits}${'TRWAGMYFPDXBNJZSQVHLCKE'[digits % 23]}`;
}

/** A Madrid-winter literal (+01:00) for a moment, as FechaHoraHusoGenRegistro writes it. */
function literalOf(ms: number): string {
  return `${new Date(ms + 3_600_000).toISOString().slice(0, 19)}+01:00`;
}

/**
 * Record `seq` of the filled chain: invoice dates that follow the chain, as a till's do (2,740 a day: a year at a
 * million), amounts from 1.00 to 1,000.00, one recipient among 1,000, and the authority's answers a busy account has
 * (1 in 50 rejected, 1 in 10 still queued, the rest accepted). Its id is time-ordered as the service makes it
 * (`newRecordId`, a UUID v7): random ids would put each record's entries on random pages of five indexes, which
 * the service's own records never do, and overstate their bytes.
 */
function recordAt(seq: number, issuerNif: string, startMs: number, previous: { id: string; hash: string }): FilledRecord {
  const cents = 100 + ((seq * 7919) % 99_901);
  const taxCents = Math.round(cents * 0.21);
  const [base, tax, total] = [cents, taxCents, cents + taxCents].map((c) => (c / 100).toFixed(2));
  const date = new Date(Date.UTC(2025, 0, 1) + (Math.floor(seq / INVOICES_A_DAY) % 365) * DAY_MS).toISOString().slice(0, 10);
  const at = startMs + seq * 10;
  const literal = literalOf(at - (at % 1000));
  const number = `S-${String(seq).padStart(8, '0')}`;
  const status = seq % 50 === 0 ? 'rejected' : seq % 10 === 0 ? 'queued' : 'accepted';
  const hash = computeRegistrationHash({
    issuerNif,
    invoiceNumber: number,
    invoiceDate: toAeatDate(date),
    invoiceType: 'F1',
    totalTax: tax,
    total,
    previousHash: previous.hash,
    generatedAt: literal,
  });
  const recipientNif = recipientNifOf(seq % 1000);
  return {
    id: v7(),
    seq,
    number,
    date,
    base,
    tax,
    total,
    status,
    recipientNif,
    literal,
    at: new Date(at).toISOString(),
    hash,
    previousHash: previous.hash,
    previousId: previous.id,
  };
}

/** Each column of `table` in order: the override's expression, or the template row's own value (alias `t`). */
async function columnsOf(pool: Pool, table: string, overrides: Record<string, string>): Promise<{ names: string; values: string }> {
  const { rows } = await pool.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  const names = rows.map((r) => r.column_name);
  return { names: names.map((c) => `"${c}"`).join(', '), values: names.map((c) => overrides[c] ?? `t."${c}"`).join(', ') };
}

const RECORD_OVERRIDES: Record<string, string> = {
  id: 'n.id',
  chain_seq: 'n.seq',
  invoice_id: 'n.id',
  current_record_id: 'n.id',
  invoice_number: 'n.number',
  invoice_date: 'n.date',
  total_amount: 'n.total',
  total_tax_amount: 'n.tax',
  authority_status: 'n.status',
  generated_at_literal: 'n.literal',
  generated_at: 'n.at',
  created_at: 'n.at',
  updated_at: 'n.at',
  hash: 'n.hash',
  previous_hash: 'n.prev_hash',
  previous_invoice_id: 'n.prev_id',
  recipient: `jsonb_set(t.recipient, '{nif}', to_jsonb(n.rnif))`,
};

const NEW_ROWS = `unnest($1::uuid[], $2::int[], $3::text[], $4::date[], $5::numeric[], $6::numeric[], $7::numeric[], $8::text[],
  $9::text[], $10::text[], $11::timestamptz[], $12::text[], $13::text[], $14::uuid[])
  AS n(id, seq, number, date, base, tax, total, status, rnif, literal, at, hash, prev_hash, prev_id)`;

export interface FilledChain {
  records: number;
  /** Wall time of the fill, ms. */
  fillMs: number;
}

/**
 * Fills a taxpayer's chain, which holds one registered record (the template, registered through the API), to
 * `records` records with COPY-like multi-row statements: each record a copy of the template's row and line with its
 * own number, date, amounts, recipient, status and time, its huella and link computed as the append computes them, so
 * the chain verifies, and the status events its status took (its first, queued, is implied by the record: decision
 * 0065). The chain's head is moved to the last record. Far faster than registering a
 * million invoices, and what is measured afterwards (lists, export, verification, bytes) reads the same rows.
 */
export async function fillChain(pool: Pool, chainId: string, records: number, log: (line: string) => void): Promise<FilledChain> {
  const started = Date.now();
  const { rows: heads } = await pool.query<{ id: string; hash: string; issuer_nif: string; chain_length: number; generated_ms: string }>(
    `SELECT i.id, i.hash, i.issuer_nif, c.chain_length, (extract(epoch FROM i.generated_at) * 1000)::bigint AS generated_ms
     FROM chains c JOIN invoices i ON i.id = c.last_invoice_id WHERE c.id = $1`,
    [chainId],
  );
  if (heads.length !== 1 || heads[0].chain_length !== 1) throw new Error('the chain to fill must hold exactly its template record');
  const template = heads[0].id;
  const issuerNif = heads[0].issuer_nif;
  const invoiceColumns = await columnsOf(pool, 'invoices', RECORD_OVERRIDES);
  const lineColumns = await columnsOf(pool, 'invoice_lines', { invoice_id: 'n.id', base_amount: 'n.base', tax_amount: 'n.tax' });
  const statement = `WITH n AS (SELECT * FROM ${NEW_ROWS}),
    r AS (INSERT INTO invoices (${invoiceColumns.names}) SELECT ${invoiceColumns.values} FROM n, invoices t WHERE t.id = $15 RETURNING 1),
    l AS (INSERT INTO invoice_lines (${lineColumns.names}) SELECT ${lineColumns.values} FROM n, invoice_lines t WHERE t.invoice_id = $15 RETURNING 1)
    INSERT INTO invoice_status_events (invoice_id, status, at)
    SELECT n.id, s.status, n.at FROM n CROSS JOIN LATERAL (VALUES ('sent'), ('accepted'), ('rejected')) s(status)
    WHERE n.status <> 'queued' AND (s.status = 'sent' OR s.status = n.status)`;
  let previous = { id: template, hash: heads[0].hash };
  // Generated after the template, a record every 10 ms: a chain's generation times never go back.
  const startMs = Number(heads[0].generated_ms) + 1000;
  for (let from = 2; from <= records; from += CHUNK) {
    const chunk: FilledRecord[] = [];
    for (let seq = from; seq < Math.min(from + CHUNK, records + 1); seq += 1) {
      const r = recordAt(seq, issuerNif, startMs, previous);
      chunk.push(r);
      previous = { id: r.id, hash: r.hash };
    }
    const column = <K extends keyof FilledRecord>(k: K) => chunk.map((r) => r[k]);
    await pool.query(statement, [
      column('id'),
      column('seq'),
      column('number'),
      column('date'),
      column('base'),
      column('tax'),
      column('total'),
      column('status'),
      column('recipientNif'),
      column('literal'),
      column('at'),
      column('hash'),
      column('previousHash'),
      column('previousId'),
      template,
    ]);
    log(`  filled ${(from + chunk.length - 1).toLocaleString('en-US')} of ${records.toLocaleString('en-US')} records`);
  }
  await pool.query(`UPDATE chains SET chain_length = $2, last_invoice_id = $3 WHERE id = $1`, [chainId, records, previous.id]);
  await pool.query('VACUUM (ANALYZE) invoices, invoice_lines, invoice_status_events');
  return { records, fillMs: Date.now() - started };
}
