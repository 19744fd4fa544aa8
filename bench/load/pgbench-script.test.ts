import { pgbenchScript } from './pgbench-script';

/** The SQL commands of a script, without pgbench's meta-commands. */
const sqlOf = (script: string) => script.split('\n').filter((l) => l.trim() && !l.startsWith('\\'));

describe('pgbenchScript', () => {
  it('runs the baseline append statement for statement: lock the head, insert, advance, commit', () => {
    const sql = sqlOf(pgbenchScript('baseline_wide', 1));
    expect(sql).toHaveLength(5);
    expect(sql[0]).toBe('BEGIN;');
    expect(sql[1]).toMatch(/^SELECT .* FROM "baseline_wide"\.heads WHERE taxpayer = :taxpayer FOR UPDATE \\gset$/);
    expect(sql[2]).toMatch(/^INSERT INTO "baseline_wide"\.records .* VALUES \(/);
    expect(sql[3]).toMatch(/^UPDATE "baseline_wide"\.heads SET seq = :seq::int \+ 1, last_hash = :hash WHERE taxpayer = :taxpayer;$/);
    expect(sql[4]).toBe('COMMIT;');
  });

  it('appends a batch with one insert whose records chain to one another, and advances the head by the batch', () => {
    const sql = sqlOf(pgbenchScript('baseline_bulk', 1000));
    expect(sql).toHaveLength(5);
    expect(sql[2]).toMatch(/^WITH RECURSIVE chain .* WHERE c\.k < 1000\), stored AS \(INSERT INTO "baseline_bulk"\.records /);
    expect(sql[2].match(/INSERT/g)).toHaveLength(1);
    expect(sql[3]).toContain('SET seq = :seq::int + 1000');
  });

  it('takes the taxpayers in turn from each client and keeps invoice numbers unique across runs and clients', () => {
    const script = pgbenchScript('s', 1);
    expect(script).toContain('\\set n :n + 1');
    expect(script).toContain('\\set taxpayer (:client_id + :n * :clients) % :taxpayers');
    expect(script).toContain(`'PGB-' || :run || '-' || :client_id || '-' || :n`);
  });
});
