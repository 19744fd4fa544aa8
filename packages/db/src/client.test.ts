import { createTestDatabase, type TestDatabase } from './testing';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.destroy());

test('a checked-out connection the server terminates fails its next query instead of ending the process', async () => {
  const client = await t.pool.connect();
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  await t.pool.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
  // The termination arrives while the client idles between queries (as inside a transaction or under a held lock).
  await new Promise((resolve) => setTimeout(resolve, 300));
  await expect(client.query('SELECT 1')).rejects.toThrow(/not queryable|terminat/);
  client.release();
  expect((await t.pool.query<{ one: number }>('SELECT 1 AS one')).rows[0].one).toBe(1);
});
