export * from './schema';
export { createDatabase, type Database, type Db, type Tx, type DbOrTx } from './client';
export { migrateDatabase, ensureDatabase } from './migrate';
