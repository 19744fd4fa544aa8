import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { MIGRATIONS_FOLDER, migrateDatabase } from './migrate';

interface JournalEntry {
  tag: string;
  /** What the migrator records as the migration's `created_at` once applied. */
  when: number;
}

export interface SchemaStatus {
  /** Every migration this code ships has been applied (a newer schema, from a later release, is current too). */
  current: boolean;
  /** The migrations this code ships that the database lacks, oldest first. */
  missing: string[];
}

let journal: JournalEntry[] | undefined;

function shippedMigrations(): JournalEntry[] {
  journal ??= (JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] })
    .entries;
  return journal;
}

const UNDEFINED_TABLE = '42P01';
const UNDEFINED_SCHEMA = '3F000';

/**
 * Whether the database holds the schema this code was written for, read from the migrator's own table: the
 * migrator applies, in order, every migration newer than the newest it recorded. One query, so readiness probes
 * may ask it every few seconds; a database that cannot be reached rejects.
 */
export async function schemaStatus(pool: Pick<Pool, 'query'>): Promise<SchemaStatus> {
  let newest = -1;
  try {
    const { rows } = await pool.query<{ newest: string | null }>('SELECT max(created_at) AS newest FROM drizzle.__drizzle_migrations');
    newest = rows[0].newest === null ? -1 : Number(rows[0].newest);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== UNDEFINED_TABLE && code !== UNDEFINED_SCHEMA) throw err;
  }
  const missing = shippedMigrations()
    .filter((m) => m.when > newest)
    .map((m) => m.tag);
  return { current: missing.length === 0, missing };
}

/** The operator's message for a database whose schema is older than the code. */
function outdatedSchemaMessage(status: SchemaStatus): string {
  const [first, ...rest] = status.missing;
  const more = rest.length > 0 ? ` and ${rest.length} later one${rest.length > 1 ? 's' : ''}` : '';
  return `the database schema is older than this code: migration ${first}${more} not applied; run the migrations (npm run migrate, or the image's migrate command) and this process serves once they are in`;
}

/** Thrown while the database's schema is older than the code: the process waits (and says why) until it is not. */
export class OutdatedSchemaError extends Error {
  constructor(readonly status: SchemaStatus) {
    super(outdatedSchemaMessage(status));
    this.name = 'OutdatedSchemaError';
  }
}

/**
 * Resolves once the database holds this code's schema, after migrating it first when `migrate` is set
 * (MIGRATE_ON_START); rejects while PostgreSQL cannot be reached or the schema is older. Callers retry it.
 */
export async function ensureCurrentSchema(opts: { url: string; pool: Pick<Pool, 'query'>; migrate: boolean }): Promise<void> {
  if (opts.migrate) await migrateDatabase(opts.url);
  const status = await schemaStatus(opts.pool);
  if (!status.current) throw new OutdatedSchemaError(status);
}
