import { migrateDatabase } from '../migrate';
import { TEST_DB_PREFIX, testDatabaseName, urlFor, withAdmin } from './test-database';

const STALE_AFTER_SECONDS = 6 * 3600;

/**
 * Builds this run's migrated template once; each test file clones it. Several jest runs may share the
 * server (developers in parallel, CI), so only databases left behind by runs older than a few hours are dropped.
 */
export default async function globalSetup(): Promise<void> {
  const template = testDatabaseName();
  await withAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${TEST_DB_PREFIX}%`,
    ]);
    const now = Math.floor(Date.now() / 1000);
    for (const { datname } of rows) {
      const created = Number(datname.slice(TEST_DB_PREFIX.length).split('_')[0]);
      if (!Number.isFinite(created) || now - created > STALE_AFTER_SECONDS) {
        await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    }
    await admin.query(`CREATE DATABASE "${template}"`);
  });
  await migrateDatabase(urlFor(template));
  process.env.VF_TEST_TEMPLATE_DB = template;
}
