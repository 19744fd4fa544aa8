import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDatabase, type Database } from '../client';

/** Databases made by test runs are named vf_test_<unix seconds>_<random>, so stale ones can be told by age. */
export const TEST_DB_PREFIX = 'vf_test_';

export function testDatabaseName(): string {
  return `${TEST_DB_PREFIX}${Math.floor(Date.now() / 1000)}_${randomBytes(5).toString('hex')}`;
}

/** The template of this jest run, chosen by global setup and inherited by every test worker. */
export function templateName(): string {
  const name = process.env.VF_TEST_TEMPLATE_DB;
  if (!name) throw new Error('VF_TEST_TEMPLATE_DB is not set: run the tests through jest (its global setup makes the template)');
  return name;
}

export function adminUrl(): string {
  return process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export function urlFor(name: string): string {
  const u = new URL(adminUrl());
  u.pathname = `/${name}`;
  return u.toString();
}

export async function withAdmin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

export interface TestDatabase extends Database {
  url: string;
  name: string;
  /** Closes the pool and drops the database. */
  destroy(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file, cloned from the template made in global setup. FILE_COPY copies the
 * template's files as they are, a third of the CPU of PostgreSQL 15's default (every page through the WAL); a test
 * database needs no crash safety, so its sessions (the test's, and any process started with its URL) commit
 * without waiting for the WAL to reach the disk.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = testDatabaseName();
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName()}" STRATEGY FILE_COPY`));
  const url = `${urlFor(name)}?options=${encodeURIComponent('-c synchronous_commit=off')}`;
  const database = createDatabase(url);
  // A test that drops connections on purpose (or a dropped database) must not crash the whole suite.
  database.pool.on('error', () => undefined);
  return {
    ...database,
    url,
    name,
    async destroy() {
      await database.close();
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
