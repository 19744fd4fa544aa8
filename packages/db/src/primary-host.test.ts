import { sql } from 'drizzle-orm';
import { createDatabase } from './client';
import { createTestDatabase, type TestDatabase } from './testing';

// Nothing listens on ports 1 and 2 of the loopback (privileged, unused): connecting there is refused at once.
const NOBODY = ['127.0.0.1:1', '127.0.0.1:2'];

// A multi-host URL whose first host has no server: the pool must find the one that answers and accepts writes, as
// libpq does with target_session_attrs=read-write, and say "unavailable" (08001) when none does.
let target: TestDatabase;
beforeAll(async () => {
  target = await createTestDatabase();
});
afterAll(async () => {
  await target.destroy();
});

/** The test database's URL with these hosts, asking for the read-write one. */
function withHosts(url: string, hosts: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('target_session_attrs', 'read-write');
  return parsed.toString().replace(parsed.host, hosts);
}

test('a multi-host DATABASE_URL reaches the read-write server whichever place it has in the list', async () => {
  const live = new URL(target.url).host;
  const url = withHosts(target.url, `${NOBODY[0]},${live}`);
  const database = createDatabase(url, { max: 2 });
  try {
    const { rows } = await database.db.execute<{ current_database: string }>(sql`SELECT current_database()`);
    expect(rows[0].current_database).toBe(new URL(target.url).pathname.slice(1));
  } finally {
    await database.close();
  }
});

test('with no server answering, a query fails as "unable to establish a connection" (08001), which the API answers 503', async () => {
  const url = withHosts(target.url, NOBODY.join(','));
  const database = createDatabase(url, { max: 1 });
  try {
    await expect(database.pool.query('SELECT 1')).rejects.toMatchObject({ code: '08001' });
  } finally {
    await database.close();
  }
});
