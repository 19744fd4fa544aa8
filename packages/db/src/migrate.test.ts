import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ended, startService } from '@vf/private-servers';
import { createDatabase } from './client';
import { MIGRATIONS_FOLDER } from './migrate';
import { schemaStatus } from './schema-status';
import { createTestDatabase, type TestDatabase } from './testing';
import { urlFor, withAdmin } from './testing/test-database';

const shipped = (JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] })
  .entries;

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.destroy());

test('a migrated database offers the three plans with exactly one default', async () => {
  const rows = await t.db.execute(sql`SELECT id, monthly_quota, is_default FROM plans ORDER BY monthly_quota`);
  expect(rows.rows).toEqual([
    { id: 'free', monthly_quota: 100, is_default: true },
    { id: 'pro', monthly_quota: 5000, is_default: false },
    { id: 'business', monthly_quota: 100000, is_default: false },
  ]);
});

test('three `npm run migrate` at once on a database that does not exist yet: all succeed, each migration applied once', async () => {
  const name = `vf_test_${Math.floor(Date.now() / 1000)}_migrate_${randomBytes(4).toString('hex')}`;
  const env = { ...process.env, DATABASE_URL: urlFor(name), LOG_LEVEL: 'warn' };
  try {
    const runs = Array.from({ length: 3 }, () => startService('migrate', env));
    const outcomes = await Promise.all(runs.map(ended));
    expect(outcomes.map((o, i) => ({ ...o, printed: o.code === 0 ? '' : runs[i].output.join('') }))).toEqual(
      Array(3).fill({ code: 0, signal: null, printed: '' }),
    );
    const database = createDatabase(urlFor(name), { max: 1 });
    try {
      const { rows } = await database.pool.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
      expect(rows[0].n).toBe(shipped.length);
      expect(await schemaStatus(database.pool)).toEqual({ current: true, missing: [] });
    } finally {
      await database.close();
    }
  } finally {
    await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }
});

test('a database without the latest migrations is reported outdated, naming what is missing', async () => {
  const [latest] = shipped.slice(-1);
  await t.pool.query(
    'DELETE FROM drizzle.__drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)',
  );
  expect(await schemaStatus(t.pool)).toEqual({ current: false, missing: [latest.tag] });
  await t.pool.query('DROP SCHEMA drizzle CASCADE');
  expect(await schemaStatus(t.pool)).toEqual({ current: false, missing: shipped.map((m) => m.tag) });
});
