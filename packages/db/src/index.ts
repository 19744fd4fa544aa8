export * from './schema';
export * from './stores';
export * from './records/chain-record-shape';
export { useSignedRecordForms, type SignedRecordForms, type SignedRecordParts } from './records/signed-record-forms';
export { requestXmlAsSent, signedRecordMark } from './records/stored-request-xml';
export { createDatabase, type Database, type Db, type Tx, type DbOrTx } from './client';
export { migrateDatabase, ensureDatabase } from './migrate';
export { ensureCurrentSchema, OutdatedSchemaError, schemaStatus, type SchemaStatus } from './schema-status';
