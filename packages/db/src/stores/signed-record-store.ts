import { inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import {
  certificateDigest,
  DICTIONARY_MAX_BYTES,
  joinCertificate,
  packRest,
  splitCertificate,
  unpackRest,
} from '../records/signed-record-packing';
import { signedRecords, signingCertificates } from '../schema';
import { rawRows } from './raw-rows';

/** A 1,000-record message's packed records (about 0.5 KB each) in one statement. */
const ROWS_PER_INSERT = 1000;

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

interface StoredCertificate {
  id: number;
  dictionary: Buffer;
}

interface PackedRecord {
  invoiceId: string;
  bytes: Buffer;
  certificate: Buffer | null;
  rest: Buffer;
}

/**
 * The stored certificate of each of these records' signers, by digest (hex); a certificate not stored yet is stored,
 * with the first of these records it signed as its dictionary. Certificate rows never change once written.
 */
async function certificatesOf(tx: DbOrTx, records: PackedRecord[]): Promise<Map<string, StoredCertificate>> {
  const firstOf = new Map<string, PackedRecord & { certificate: Buffer }>();
  for (const r of records) {
    if (r.certificate === null) continue;
    const key = certificateDigest(r.certificate).toString('hex');
    if (!firstOf.has(key)) firstOf.set(key, r as PackedRecord & { certificate: Buffer });
  }
  const found = new Map<string, StoredCertificate>();
  const read = async (keys: string[]) => {
    if (keys.length === 0) return;
    const rows = await tx
      .select({ id: signingCertificates.id, digest: signingCertificates.digest, dictionary: signingCertificates.dictionary })
      .from(signingCertificates)
      .where(
        inArray(
          signingCertificates.digest,
          keys.map((k) => Buffer.from(k, 'hex')),
        ),
      );
    for (const row of rows) found.set(row.digest.toString('hex'), { id: row.id, dictionary: row.dictionary });
  };
  await read([...firstOf.keys()]);
  const missing = [...firstOf].filter(([key]) => !found.has(key));
  if (missing.length === 0) return found;
  // Another sender may store the same certificate meanwhile: the unique digest keeps one, which both then read.
  await tx
    .insert(signingCertificates)
    .values(
      missing.map(([key, r]) => ({
        digest: Buffer.from(key, 'hex'),
        certificate: r.certificate.toString('latin1'),
        dictionary: r.rest.subarray(Math.max(0, r.rest.length - DICTIONARY_MAX_BYTES)),
      })),
    )
    .onConflictDoNothing();
  await read(missing.map(([key]) => key));
  return found;
}

function pack(record: PackedRecord, certificates: Map<string, StoredCertificate>): { certificateId: number | null; packed: Buffer } {
  const stored = record.certificate ? certificates.get(certificateDigest(record.certificate).toString('hex')) : undefined;
  if (record.certificate && !stored) throw new Error(`the certificate of record ${record.invoiceId} was not stored`);
  const dictionary = stored?.dictionary ?? null;
  const packed = packRest(record.rest, dictionary);
  // What is kept is what was sent, or nothing is: the bytes are read back from their parts before they are written.
  if (!joinCertificate(unpackRest(packed, dictionary), record.certificate).equals(record.bytes)) {
    throw new Error(`record ${record.invoiceId} would not read back byte for byte from its parts`);
  }
  return { certificateId: stored?.id ?? null, packed };
}

export const signedRecordStore = {
  /**
   * Keeps each record's signed bytes, only where the record has none yet (a conditional write): if any had, throws
   * SignedRecordConflictError, so that the caller's transaction rolls back and no record goes with a second version.
   * Run it in the transaction that opens the submission, before anything is sent. Each record is kept packed: its
   * certificate once per certificate, the rest deflated against that certificate's dictionary (decision 0048).
   */
  async keep(tx: DbOrTx, records: NewSignedRecord[]): Promise<void> {
    if (records.length === 0) return;
    const parts = records.map((r): PackedRecord => {
      const bytes = typeof r.xml === 'string' ? Buffer.from(r.xml, 'utf8') : r.xml;
      return { invoiceId: r.invoiceId, bytes, ...splitCertificate(bytes) };
    });
    const certificates = await certificatesOf(tx, parts);
    const kept: { invoiceId: string }[] = [];
    for (let i = 0; i < parts.length; i += ROWS_PER_INSERT) {
      const rows = sql.join(
        parts.slice(i, i + ROWS_PER_INSERT).map((r) => {
          const { certificateId, packed } = pack(r, certificates);
          return sql`(${r.invoiceId}::uuid, ${certificateId}::int, ${packed}::bytea)`;
        }),
        sql`, `,
      );
      kept.push(
        ...(await rawRows<{ invoiceId: string }>(
          tx,
          sql`INSERT INTO signed_records (invoice_id, certificate_id, packed) VALUES ${rows} ON CONFLICT (invoice_id) DO NOTHING RETURNING invoice_id`,
        )),
      );
    }
    if (kept.length === records.length) return;
    const written = new Set(kept.map((k) => k.invoiceId));
    throw new SignedRecordConflictError(records.filter((r) => !written.has(r.invoiceId)).map((r) => r.invoiceId));
  },

  /** The signed bytes of these records, by record id (records never signed are absent), exactly as they were kept. */
  async of(db: DbOrTx, invoiceIds: string[]): Promise<Map<string, string>> {
    if (invoiceIds.length === 0) return new Map();
    const rows = await db
      .select({
        invoiceId: signedRecords.invoiceId,
        xml: signedRecords.xml,
        certificateId: signedRecords.certificateId,
        packed: signedRecords.packed,
      })
      .from(signedRecords)
      // One array parameter, not one a record: a verification page asks for 1,000, which as a list cost the statement's
      // building and parsing more than its reading.
      .where(sql`${signedRecords.invoiceId} = ANY(${sql.param(invoiceIds)}::uuid[])`);
    const ids = [...new Set(rows.flatMap((r) => (r.certificateId === null ? [] : [r.certificateId])))];
    const certificates = new Map(
      ids.length === 0
        ? []
        : (
            await db
              .select({
                id: signingCertificates.id,
                certificate: signingCertificates.certificate,
                dictionary: signingCertificates.dictionary,
              })
              .from(signingCertificates)
              .where(inArray(signingCertificates.id, ids))
          ).map((c) => [c.id, { certificate: Buffer.from(c.certificate, 'latin1'), dictionary: c.dictionary }]),
    );
    return new Map(
      rows.map((r) => {
        if (r.packed === null) return [r.invoiceId, r.xml ?? ''];
        const signer = r.certificateId === null ? undefined : certificates.get(r.certificateId);
        return [
          r.invoiceId,
          joinCertificate(unpackRest(r.packed, signer?.dictionary ?? null), signer?.certificate ?? null).toString('utf8'),
        ];
      }),
    );
  },
};
