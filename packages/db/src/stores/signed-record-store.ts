import { inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { signedRecords } from '../schema';
import { rawRows } from './raw-rows';

/**
 * About 800 KB of signed bytes a statement: `pg` assembles each statement's parameters in one buffer, grown by copying,
 * so a 1,000-record message in one statement held about 8 MB several times over in the sender.
 */
const ROWS_PER_INSERT = 100;

/** A record's signed bytes, to keep before the first message that carries it. */
export interface NewSignedRecord {
  invoiceId: string;
  /** Its UTF-8 bytes (sent as they are, not encoded again: a sender keeps the view of them its request holds), or its text. */
  xml: Buffer | string;
}

/**
 * Some of the records already had signed bytes: a message built with new ones would send a second signed version of
 * a record. Nothing was written; rebuild the message from what is stored.
 */
export class SignedRecordConflictError extends Error {
  constructor(readonly invoiceIds: string[]) {
    super(`${invoiceIds.length} record(s) were signed already (e.g. ${invoiceIds[0]}); the message is rebuilt from the stored signatures`);
    this.name = 'SignedRecordConflictError';
  }
}

export const signedRecordStore = {
  /**
   * Keeps each record's signed bytes, only where the record has none yet (a conditional write): if any had, throws
   * SignedRecordConflictError, so that the caller's transaction rolls back and no record goes with a second version.
   * Run it in the transaction that opens the submission, before anything is sent.
   */
  async keep(tx: DbOrTx, records: NewSignedRecord[]): Promise<void> {
    if (records.length === 0) return;
    const kept: { invoiceId: string }[] = [];
    for (let i = 0; i < records.length; i += ROWS_PER_INSERT) {
      // One parameter per value rather than two arrays: a text[] of 1,000 signed records (8 MB) is escaped into one
      // array literal here and parsed back by PostgreSQL, which took about half again as long as the insert itself.
      const rows = sql.join(
        records.slice(i, i + ROWS_PER_INSERT).map((r) => sql`(${r.invoiceId}::uuid, ${r.xml})`),
        sql`, `,
      );
      kept.push(
        ...(await rawRows<{ invoiceId: string }>(
          tx,
          sql`INSERT INTO signed_records (invoice_id, xml) VALUES ${rows} ON CONFLICT (invoice_id) DO NOTHING RETURNING invoice_id`,
        )),
      );
    }
    if (kept.length === records.length) return;
    const written = new Set(kept.map((k) => k.invoiceId));
    throw new SignedRecordConflictError(records.filter((r) => !written.has(r.invoiceId)).map((r) => r.invoiceId));
  },

  /** The signed bytes of these records, by record id (records never signed are absent). */
  async of(db: DbOrTx, invoiceIds: string[]): Promise<Map<string, string>> {
    if (invoiceIds.length === 0) return new Map();
    const rows = await db
      .select({ invoiceId: signedRecords.invoiceId, xml: signedRecords.xml })
      .from(signedRecords)
      .where(inArray(signedRecords.invoiceId, invoiceIds));
    return new Map(rows.map((r) => [r.invoiceId, r.xml]));
  },
};
