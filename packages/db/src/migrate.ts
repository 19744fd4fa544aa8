import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Client } from 'pg';
import { chosenServerUrl } from './primary-host';

export const MIGRATIONS_FOLDER = path.resolve(__dirname, '../migrations');

/**
 * The key of the session advisory lock every migration run holds (arbitrary; "vf" and a number). PostgreSQL scopes
 * advisory locks to the database they are taken in, so the same key serialises both the creation of the database
 * (taken in the maintenance database) and the migrations (taken in the service's).
 */
const MIGRATION_LOCK_KEY = 0x76660002;

const DATABASE_MISSING = '3D000';

function errorCode(err: unknown): string | undefined {
  return (err as { code?: string }).code;
}

/** Runs `work` on a connection of its own holding the migration lock; ending the session releases the lock. */
async function underMigrationLock<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  // A server that goes away mid-run fails the query in hand; without a listener the 'error' would end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Creates the database named in the URL if it does not exist. Only then is the maintenance database ("postgres")
 * connected to, under the migration lock so that processes starting together create it once.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const probe = new Client({ connectionString: url });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return;
  } catch (err) {
    if (errorCode(err) !== DATABASE_MISSING) throw err;
  } finally {
    await probe.end().catch(() => undefined);
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  await underMigrationLock(admin.toString(), async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  });
}

/**
 * Applies the migrations the database lacks. Any number of runs may start at once (a deploy's job, API replicas
 * with MIGRATE_ON_START): each waits for the session advisory lock, and finds nothing left to do once the first is
 * through. It needs a session of its own, so point it at PostgreSQL itself, not at a transaction-pooling proxy.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const server = await chosenServerUrl(url);
  await ensureDatabase(server);
  await underMigrationLock(server, (client) => migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER }));
}
