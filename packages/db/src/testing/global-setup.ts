import { Client } from 'pg';
import { migrateDatabase } from '../migrate';
import { TEMPLATE_DB, adminUrl, urlFor } from './test-database';

/** Builds the migrated template database once per jest run; each test file clones it. */
export default async function globalSetup(): Promise<void> {
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    const stale = await admin.query("SELECT datname FROM pg_database WHERE datname LIKE 'vf_test_%' AND datname <> $1", [TEMPLATE_DB]);
    for (const row of stale.rows) await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DB}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${TEMPLATE_DB}"`);
  } finally {
    await admin.end();
  }
  await migrateDatabase(urlFor(TEMPLATE_DB));
}
