import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDatabase, migrateDatabase, type Database } from '@vf/db';

export interface ScratchDatabase extends Database {
  url: string;
  destroy(): Promise<void>;
}

/** A migrated database of its own for one benchmark run, dropped afterwards. */
export async function scratchDatabase(): Promise<ScratchDatabase> {
  const admin = new URL(process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const url = new URL(admin);
  url.pathname = `/vf_bench_${randomBytes(5).toString('hex')}`;
  await migrateDatabase(url.toString());
  const database = createDatabase(url.toString(), { max: 20 });
  // The final DROP … WITH (FORCE) may terminate a connection the pool is still closing.
  database.pool.on('error', () => undefined);
  return {
    ...database,
    url: url.toString(),
    async destroy() {
      await database.close();
      const client = new Client({ connectionString: admin.toString() });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
