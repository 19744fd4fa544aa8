import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDatabase, type Database } from '../client';

export const TEMPLATE_DB = 'vf_test_template';

export function adminUrl(): string {
  return process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export function urlFor(name: string): string {
  const u = new URL(adminUrl());
  u.pathname = `/${name}`;
  return u.toString();
}

export interface TestDatabase extends Database {
  url: string;
  name: string;
  /** Closes the pool and drops the database. */
  destroy(): Promise<void>;
}

/** A fresh, migrated database for one test file, cloned from the template made in global setup. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `vf_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DB}"`);
  } finally {
    await admin.end();
  }
  const url = urlFor(name);
  const database = createDatabase(url);
  return {
    ...database,
    url,
    name,
    async destroy() {
      await database.close();
      const c = new Client({ connectionString: adminUrl() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
