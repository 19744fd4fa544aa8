import { createDatabase } from '@vf/db';

// A unit test that reaches PostgreSQL anyway (here through the store package, which no rule of test-projects.ts
// classifies) fails in `npm test` as it would with PostgreSQL stopped, rather than passing on the database the other
// projects use.
test('a unit test finds no PostgreSQL: the database its setup names does not exist', async () => {
  const database = createDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  try {
    await expect(database.pool.query('SELECT 1')).rejects.toThrow(/unit-tests-use-no-postgresql/);
  } finally {
    await database.close();
  }
});

test('a unit test finds no test database template', () => {
  expect(process.env.VF_TEST_TEMPLATE_DB).toBeUndefined();
});
