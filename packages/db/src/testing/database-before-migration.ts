import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { MIGRATIONS_FOLDER } from '../migrate';
import { testDatabaseName, urlFor, withAdmin } from './test-database';

/**
 * Common table expressions that make one account with a computer system, a taxpayer (89890001K) and its sandbox
 * chain, as the tables stood before migrations 0031 to 0036: `a`, `s`, `tp` (with account_id) and `c`.
 */
export const ONE_CHAIN = `a AS (INSERT INTO accounts (name, email, password_hash, api_key_digest, api_key_hint, plan_id)
               VALUES ('n', 'n@x.es', 'h', 'd', 'vfk_', 'free') RETURNING id),
         s AS (INSERT INTO computer_systems (account_id, vendor_name, vendor_nif, name, version, installation_number, system_code)
               SELECT id, 'V', 'B85905495', 'S', '1', '1', 'S1' FROM a RETURNING id),
         tp AS (INSERT INTO taxpayers (account_id, nif, name) SELECT id, '89890001K', 'T' FROM a RETURNING id, account_id),
         c AS (INSERT INTO chains (taxpayer_id, nif, is_production) SELECT id, '89890001K', false FROM tp RETURNING id)`;

/** One migration's test database: `db` once the hooks ran, `apply()` applies the migration under test. */
export interface DatabaseBeforeMigration {
  readonly db: Client;
  apply(): Promise<void>;
}

/**
 * A database of its own for one migration's test file, built by every migration before `tag` (so it holds data as
 * the versions before that migration wrote it), and dropped after the file. Registers the file's beforeAll/afterAll:
 * call it at the top of the file, before hooks that use `db`.
 */
export function databaseBeforeMigration(tag: string): DatabaseBeforeMigration {
  const name = testDatabaseName();
  let client: Client | undefined;

  async function applyTag(t: string): Promise<void> {
    const text = readFileSync(path.join(MIGRATIONS_FOLDER, `${t}.sql`), 'utf8');
    for (const statement of text.split('--> statement-breakpoint')) {
      if (statement.trim()) await client!.query(statement);
    }
  }

  beforeAll(async () => {
    await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
    client = new Client({ connectionString: urlFor(name) });
    await client.connect();
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    for (const entry of journal.entries.filter((e) => e.tag < tag)) await applyTag(entry.tag);
  });
  afterAll(async () => {
    await client?.end();
    await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  });

  return {
    get db() {
      if (!client) throw new Error('databaseBeforeMigration: db is ready only inside tests and hooks');
      return client;
    },
    apply: () => applyTag(tag),
  };
}
