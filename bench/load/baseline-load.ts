import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { round, summarizeLatencies } from '../report/stats';
import type { BaselineLoadSpec, LoadResult, RoundResult } from './load-spec';
import { noPhases, type AnnouncePhase } from './measure-phase';

/** A record about the size of a registered invoice's row. */
export const PAYLOAD = JSON.stringify({
  invoice_type: 'F1',
  description: 'Servicios de consultoría',
  recipient: { name: 'Cliente SL', nif: 'B85905495' },
  breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: '100.00', tax_rate: '21.00', tax_amount: '21.00' }],
  total_amount: '121.00',
  total_tax_amount: '21.00',
});

/** The baseline's tables in `schema`, made afresh: a head row per taxpayer and the records chained to it. */
export async function createTables(client: Client, schema: string, taxpayers: number): Promise<void> {
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.query(`CREATE TABLE "${schema}".heads (taxpayer integer PRIMARY KEY, seq integer NOT NULL, last_hash char(64))`);
  await client.query(`CREATE TABLE "${schema}".records (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(), taxpayer integer NOT NULL REFERENCES "${schema}".heads(taxpayer), seq integer NOT NULL,
    invoice_number text NOT NULL, previous_hash char(64), hash char(64) NOT NULL, payload jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(), UNIQUE (taxpayer, seq), UNIQUE (taxpayer, invoice_number))`);
  await client.query(`INSERT INTO "${schema}".heads (taxpayer, seq) SELECT g, 0 FROM generate_series(0, $1::int - 1) g`, [taxpayers]);
}

/**
 * What PostgreSQL alone does for the registration's append: BEGIN; lock the taxpayer's head row FOR UPDATE;
 * insert the record(s) chained to it; advance the head; COMMIT. Named (prepared) statements, one connection per
 * client, taxpayers taken in turn as the HTTP workloads do: the ceiling the API's rate is compared with.
 */
export async function runBaselineLoad(spec: BaselineLoadSpec, announce: AnnouncePhase = noPhases): Promise<LoadResult> {
  const s = `"${spec.schema}"`;
  const admin = new Client({ connectionString: spec.databaseUrl });
  await admin.connect();
  await createTables(admin, spec.schema, spec.taxpayers);
  await admin.end();

  const clients = await Promise.all(
    Array.from({ length: spec.connections }, async () => {
      const c = new Client({ connectionString: spec.databaseUrl });
      await c.connect();
      return c;
    }),
  );
  const lock = { name: `${spec.schema}-lock`, text: `SELECT seq, last_hash FROM ${s}.heads WHERE taxpayer = $1 FOR UPDATE` };
  const columns = `${s}.records (taxpayer, seq, invoice_number, previous_hash, hash, payload)`;
  // A single record goes in with a plain VALUES row; a batch with one multi-row insert from arrays.
  const insert =
    spec.recordsPerTransaction === 1
      ? { name: `${spec.schema}-insert`, text: `INSERT INTO ${columns} VALUES ($1, $2, $3, $4, $5, $6::jsonb)` }
      : {
          name: `${spec.schema}-insert`,
          text: `INSERT INTO ${columns} SELECT $1, r.seq, r.num, r.prev, r.hash, $6::jsonb FROM unnest($2::int[], $3::text[], $4::text[], $5::text[]) AS r(seq, num, prev, hash)`,
        };
  const advance = { name: `${spec.schema}-advance`, text: `UPDATE ${s}.heads SET seq = $2, last_hash = $3 WHERE taxpayer = $1` };
  let nextTaxpayer = 0;
  let nextNumber = 0;
  let totalRegistered = 0;
  const errorSamples: string[] = [];

  async function append(c: Client): Promise<void> {
    const taxpayer = nextTaxpayer++ % spec.taxpayers;
    await c.query('BEGIN');
    try {
      const head = (await c.query({ ...lock, values: [taxpayer] })).rows[0] as { seq: number; last_hash: string | null };
      const seqs: number[] = [];
      const numbers: string[] = [];
      const previousHashes: (string | null)[] = [];
      const hashes: string[] = [];
      let previous = head.last_hash;
      for (let k = 0; k < spec.recordsPerTransaction; k += 1) {
        const number = `BASE-${++nextNumber}`;
        previousHashes.push(previous);
        previous = createHash('sha256')
          .update(previous ?? '')
          .update(number)
          .update(PAYLOAD)
          .digest('hex');
        seqs.push(head.seq + k + 1);
        numbers.push(number);
        hashes.push(previous);
      }
      const values: unknown[] =
        spec.recordsPerTransaction === 1
          ? [taxpayer, seqs[0], numbers[0], previousHashes[0], hashes[0], PAYLOAD]
          : [taxpayer, seqs, numbers, previousHashes, hashes, PAYLOAD];
      await c.query({ ...insert, values });
      await c.query({ ...advance, values: [taxpayer, head.seq + spec.recordsPerTransaction, previous] });
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK');
      throw err;
    }
  }

  async function measureRound(seconds: number): Promise<RoundResult> {
    const latencies: number[] = [];
    let transactions = 0;
    let errors = 0;
    const started = performance.now();
    await Promise.all(
      clients.map(async (c) => {
        while (performance.now() - started < seconds * 1000) {
          const t0 = performance.now();
          try {
            await append(c);
            latencies.push(performance.now() - t0);
            transactions += 1;
          } catch (err) {
            errors += 1;
            if (errorSamples.length < 5) errorSamples.push((err as Error).message);
          }
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const registered = transactions * spec.recordsPerTransaction;
    totalRegistered += registered;
    return {
      seconds: round(elapsed, 3)!,
      requests: transactions + errors,
      registered,
      errors,
      registrationsPerSecond: round(registered / elapsed)!,
      latencyMs: summarizeLatencies(latencies),
    };
  }

  try {
    if (spec.warmupSeconds > 0) await measureRound(spec.warmupSeconds);
    await announce('measuring');
    const rounds: RoundResult[] = [];
    for (let r = 0; r < spec.rounds; r += 1) rounds.push(await measureRound(spec.seconds));
    await announce('measured');
    return { available: true, rounds, totalRegistered, uncertain: 0, errorSamples };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}
