import path from 'node:path';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Client } from 'pg';
import { createDatabase } from './client';

export const MIGRATIONS_FOLDER = path.resolve(__dirname, '../migrations');

/** Creates the database named in the URL if it does not exist (connecting to the maintenance db "postgres"). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } catch (err) {
    // Another process may have created it between the check and the CREATE.
    if ((err as { code?: string }).code !== '42P04') throw err;
  } finally {
    await client.end();
  }
}

export async function migrateDatabase(url: string): Promise<void> {
  await ensureDatabase(url);
  const { db, close } = createDatabase(url, { max: 1 });
  try {
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await close();
  }
}
