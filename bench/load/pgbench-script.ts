/**
 * pgbench's script for the baseline's append (bench/load/baseline-load.ts), statement for statement: BEGIN; lock the
 * taxpayer's head row FOR UPDATE; insert the record chained to it (the batch with one insert); advance the head;
 * COMMIT. pgbench cannot hash on the client, so the chain's SHA-256 is computed in the insert (a few microseconds
 * a record). Variables set with -D: clients, taxpayers, run (unique per invocation, for invoice numbers), n = 0
 * (each client's transaction counter, which pgbench keeps across its transactions) and payload.
 */
export function pgbenchScript(schema: string, recordsPerTransaction: number): string {
  const s = `"${schema}"`;
  const columns = `${s}.records (taxpayer, seq, invoice_number, previous_hash, hash, payload)`;
  const number = (suffix: string) => `'PGB-' || :run || '-' || :client_id || '-' || :n${suffix}`;
  const hash = (previous: string, num: string) => `encode(sha256(convert_to(${previous} || ${num} || :payload::text, 'UTF8')), 'hex')`;
  // Each client takes the taxpayers in turn from its own offset, as the Node baseline's clients share a counter.
  const head = [
    '\\set n :n + 1',
    '\\set taxpayer (:client_id + :n * :clients) % :taxpayers',
    'BEGIN;',
    `SELECT seq, coalesce(last_hash, '') AS prev FROM ${s}.heads WHERE taxpayer = :taxpayer FOR UPDATE \\gset`,
  ];
  const append =
    recordsPerTransaction === 1
      ? [
          `INSERT INTO ${columns} VALUES (:taxpayer, :seq::int + 1, ${number('')}, NULLIF(:prev::text, ''), ` +
            `${hash(':prev::text', number(''))}, :payload::jsonb) RETURNING hash \\gset`,
        ]
      : [
          // A batch's records chain to one another, so their hashes come one after the other.
          `WITH RECURSIVE chain (k, num, prev, hash) AS (` +
            ` SELECT 1, f.num, :prev::text, ${hash(':prev::text', 'f.num')} FROM (SELECT ${number(" || '-1'")} AS num) f` +
            ` UNION ALL SELECT c.k + 1, x.num, c.hash, ${hash('c.hash', 'x.num')}` +
            ` FROM chain c, LATERAL (SELECT ${number(" || '-' || (c.k + 1)")} AS num) x WHERE c.k < ${recordsPerTransaction}` +
            `), stored AS (INSERT INTO ${columns} SELECT :taxpayer, :seq::int + k, num, NULLIF(prev, ''), hash, :payload::jsonb FROM chain` +
            ` RETURNING seq, hash) SELECT hash FROM stored ORDER BY seq DESC LIMIT 1 \\gset`,
        ];
  return [
    ...head,
    ...append,
    `UPDATE ${s}.heads SET seq = :seq::int + ${recordsPerTransaction}, last_hash = :hash WHERE taxpayer = :taxpayer;`,
    'COMMIT;',
    '',
  ].join('\n');
}
