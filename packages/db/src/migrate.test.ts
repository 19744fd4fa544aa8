import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from './testing';

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
