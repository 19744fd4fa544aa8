import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { SistemaInformatico } from '@vf/core';
import type { DbOrTx } from '../client';
import {
  certificateDigest,
  DICTIONARY_MAX_BYTES,
  joinCertificate,
  packRest,
  splitCertificate,
  unpackRest,
} from '../records/signed-record-packing';
import type { StoredChainRecord } from '../records/chain-record-shape';
import { signedRecordForms, type SignedRecordForms, type SignedRecordParts } from '../records/signed-record-forms';
import { invoiceLines, invoices, signedRecords, signingCertificates, systemSnapshots } from '../schema';
import { STORED_INVOICE_CONTENT_COLUMNS, storedLineOf, type StoredLine } from './chain-append-read-store';
import { previousRecord } from './previous-record';
import { rawRows } from './raw-rows';

/** A 1,000-record message's packed records (about 0.5 KB each) in one statement. */
const ROWS_PER_INSERT = 1000;

/** A record's signed bytes, to keep before the first message that carries it. */
export interface NewSignedRecord {
  invoiceId: string;
  /** Its UTF-8 bytes (sent as they are, not encoded again: a sender keeps the view of them its request holds), or its text. */
  xml: Buffer | string;
  /**
   * The record's row as the caller read it from the database, if it did (the sender): the parts are proven against it.
   * Otherwise the row is read back in the transaction.
   */
  row?: StoredChainRecord;
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
  signingCertificate: string | null;
}

interface PackedRecord {
  invoiceId: string;
  bytes: Buffer;
  certificate: Buffer | null;
  rest: Buffer;
  /** Its signature's parts, when its row and the current form rebuild its very bytes from them. */
  parts?: SignedRecordParts;
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
    const first = firstOf.get(key);
    if (!first || (!first.parts && r.parts)) firstOf.set(key, r as PackedRecord & { certificate: Buffer });
  }
  const found = new Map<string, StoredCertificate>();
  const read = async (keys: string[]) => {
    if (keys.length === 0) return;
    const rows = await tx
      .select({
        id: signingCertificates.id,
        digest: signingCertificates.digest,
        dictionary: signingCertificates.dictionary,
        signingCertificate: signingCertificates.signingCertificate,
      })
      .from(signingCertificates)
      .where(
        inArray(
          signingCertificates.digest,
          keys.map((k) => Buffer.from(k, 'hex')),
        ),
      );
    for (const row of rows) found.set(row.digest.toString('hex'), row);
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
        signingCertificate: r.parts?.signingCertificate ?? null,
      })),
    )
    .onConflictDoNothing();
  await read(missing.map(([key]) => key));
  return found;
}

/**
 * Certificates stored before records were kept as parts have no SigningCertificate: the first such record gives it
 * (set once, only where none is). A record whose SigningCertificate is not its certificate's is kept packed.
 */
async function withSigningCertificates(tx: DbOrTx, records: PackedRecord[], certificates: Map<string, StoredCertificate>) {
  for (const r of records) {
    if (!r.parts || !r.certificate) continue;
    const stored = certificates.get(certificateDigest(r.certificate).toString('hex'));
    if (!stored) continue;
    if (stored.signingCertificate === null) {
      await tx
        .update(signingCertificates)
        .set({ signingCertificate: r.parts.signingCertificate })
        .where(sql`${signingCertificates.id} = ${stored.id} AND ${signingCertificates.signingCertificate} IS NULL`);
      const [row] = await tx
        .select({ signingCertificate: signingCertificates.signingCertificate })
        .from(signingCertificates)
        .where(sql`${signingCertificates.id} = ${stored.id}`);
      stored.signingCertificate = row.signingCertificate;
    }
    if (stored.signingCertificate !== r.parts.signingCertificate) delete r.parts;
  }
}

/**
 * Each record's parts, where its row and the current form write its very bytes again (decision 0064): the row is the
 * caller's or read back, and any difference (a foreign signer's form, a row that does not write the record) leaves
 * the record packed. What is kept is what was sent, byte for byte.
 */
async function withParts(tx: DbOrTx, records: (PackedRecord & { row?: StoredChainRecord })[], forms: SignedRecordForms) {
  const candidates: { record: PackedRecord; row?: StoredChainRecord; parts: SignedRecordParts }[] = [];
  for (const r of records) {
    const parts = forms.partsOf(r.invoiceId, r.bytes.toString('utf8'));
    if (parts && r.certificate?.toString('latin1') === parts.certificate) candidates.push({ record: r, row: r.row, parts });
  }
  const unread = candidates.filter((c) => !c.row).map((c) => c.record.invoiceId);
  const readBack = await storedChainRecords(tx, unread);
  for (const { record, row, parts } of candidates) {
    const from = row ?? readBack.get(record.invoiceId);
    if (!from) continue;
    let rebuilt: string;
    try {
      rebuilt = forms.rebuild(forms.current, from, parts);
    } catch {
      continue;
    }
    if (Buffer.from(rebuilt, 'utf8').equals(record.bytes)) record.parts = parts;
  }
}

/** A record's row in one of its forms: its parts, or packed. */
function rowOf(record: PackedRecord, certificates: Map<string, StoredCertificate>, form: number | undefined) {
  const { parts } = record;
  if (parts && form !== undefined) {
    const stored = certificates.get(certificateDigest(Buffer.from(parts.certificate, 'latin1')).toString('hex'));
    if (!stored) throw new Error(`the certificate of record ${record.invoiceId} was not stored`);
    return sql`(${record.invoiceId}::uuid, ${stored.id}::int, NULL::bytea, ${form}::smallint, ${parts.signatureValue}::bytea, ${parts.signingTime.toISOString()}::timestamptz, ${parts.signatureId}::uuid)`;
  }
  const { certificateId, packed } = pack(record, certificates);
  return sql`(${record.invoiceId}::uuid, ${certificateId}::int, ${packed}::bytea, NULL::smallint, NULL::bytea, NULL::timestamptz, NULL::uuid)`;
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
   * Run it in the transaction that opens the submission, before anything is sent. A record is kept as its signature's
   * parts when its row rebuilds its very bytes (decision 0064), else packed: its certificate once per certificate, the
   * rest deflated against that certificate's dictionary (decision 0048).
   */
  async keep(tx: DbOrTx, records: NewSignedRecord[]): Promise<void> {
    if (records.length === 0) return;
    const split = records.map((r): PackedRecord & { row?: StoredChainRecord } => {
      const bytes = typeof r.xml === 'string' ? Buffer.from(r.xml, 'utf8') : r.xml;
      return { invoiceId: r.invoiceId, bytes, row: r.row, ...splitCertificate(bytes) };
    });
    const forms = signedRecordForms();
    if (forms) await withParts(tx, split, forms);
    const certificates = await certificatesOf(tx, split);
    await withSigningCertificates(tx, split, certificates);
    const kept: { invoiceId: string }[] = [];
    for (let i = 0; i < split.length; i += ROWS_PER_INSERT) {
      const rows = sql.join(
        split.slice(i, i + ROWS_PER_INSERT).map((r) => rowOf(r, certificates, forms?.current)),
        sql`, `,
      );
      kept.push(
        ...(await rawRows<{ invoiceId: string }>(
          tx,
          sql`INSERT INTO signed_records (invoice_id, certificate_id, packed, form, signature_value, signing_time, signature_id) VALUES ${rows} ON CONFLICT (invoice_id) DO NOTHING RETURNING invoice_id`,
        )),
      );
    }
    if (kept.length === records.length) return;
    const written = new Set(kept.map((k) => k.invoiceId));
    throw new SignedRecordConflictError(records.filter((r) => !written.has(r.invoiceId)).map((r) => r.invoiceId));
  },

  /**
   * The signed bytes of these records, by record id (records never signed are absent), exactly as they were kept.
   * `rows`: those of the records' rows the caller has read already; a record kept as parts is rebuilt from its row.
   */
  async of(db: DbOrTx, invoiceIds: string[], rows?: ReadonlyMap<string, StoredChainRecord>): Promise<Map<string, string>> {
    const { kept, certificates, rowOf } = await readKept(db, invoiceIds, rows);
    return new Map(
      kept.map((r) => {
        const signer = r.certificateId === null ? undefined : certificates.get(r.certificateId);
        if (r.form !== null) return [r.invoiceId, rebuilt({ ...r, form: r.form }, rowOf(r.invoiceId), signer)];
        return [r.invoiceId, textOf(r, signer)];
      }),
    );
  },

  /**
   * What verifying each record's signature needs, by record id: a record kept as parts gives its form, parts and row
   * (its text is not written: a verifier writes only the SignedInfo); any other, its signed bytes.
   */
  async toVerify(db: DbOrTx, invoiceIds: string[], rows?: ReadonlyMap<string, StoredChainRecord>): Promise<Map<string, SignatureToVerify>> {
    const { kept, certificates, rowOf } = await readKept(db, invoiceIds, rows);
    return new Map(
      kept.map((r): [string, SignatureToVerify] => {
        const signer = r.certificateId === null ? undefined : certificates.get(r.certificateId);
        if (r.form === null) return [r.invoiceId, { xml: textOf(r, signer) }];
        const row = rowOf(r.invoiceId);
        return [r.invoiceId, { kept: { form: r.form, row: row!, parts: partsOf({ ...r, form: r.form }, row, signer) } }];
      }),
    );
  },
};

/** A signature to verify: the signed bytes, or (kept as parts) its form, parts and the row its record is written from. */
export type SignatureToVerify =
  { xml: string; kept?: undefined } | { xml?: undefined; kept: { form: number; row: StoredChainRecord; parts: SignedRecordParts } };

/** These records' kept signatures, their certificates and (for those kept as parts) their rows. */
async function readKept(db: DbOrTx, invoiceIds: string[], rows?: ReadonlyMap<string, StoredChainRecord>) {
  if (invoiceIds.length === 0) return { kept: [], certificates: new Map<number, ReadCertificate>(), rowOf: () => undefined };
  const kept = await db
    .select({
      invoiceId: signedRecords.invoiceId,
      xml: signedRecords.xml,
      certificateId: signedRecords.certificateId,
      packed: signedRecords.packed,
      form: signedRecords.form,
      signatureValue: signedRecords.signatureValue,
      signingTime: signedRecords.signingTime,
      signatureId: signedRecords.signatureId,
    })
    .from(signedRecords)
    // One array parameter, not one a record: a verification page asks for 1,000, which as a list cost the statement's
    // building and parsing more than its reading.
    .where(sql`${signedRecords.invoiceId} = ANY(${sql.param(invoiceIds)}::uuid[])`);
  const unread = kept.filter((r) => r.form !== null && !rows?.has(r.invoiceId)).map((r) => r.invoiceId);
  // One after the other: `db` may be a transaction's one connection, where queries cannot overlap.
  const certificates = await certificatesById(db, [...new Set(kept.flatMap((r) => (r.certificateId === null ? [] : [r.certificateId])))]);
  const readBack = await storedChainRecords(db, unread);
  return { kept, certificates, rowOf: (id: string) => rows?.get(id) ?? readBack.get(id) };
}

/** A record kept as text or packed, as it was kept. */
function textOf(r: { xml: string | null; packed: Buffer | null }, signer: ReadCertificate | undefined): string {
  if (r.packed === null) return r.xml ?? '';
  return joinCertificate(unpackRest(r.packed, signer?.dictionary ?? null), signer?.certificate ?? null).toString('utf8');
}

interface ReadCertificate {
  certificate: Buffer;
  /** The certificate as X509Certificate's text, made once for the records it signed, not once a record. */
  certificateText: string;
  dictionary: Buffer;
  signingCertificate: string | null;
}

async function certificatesById(db: DbOrTx, ids: number[]): Promise<Map<number, ReadCertificate>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: signingCertificates.id,
      certificate: signingCertificates.certificate,
      dictionary: signingCertificates.dictionary,
      signingCertificate: signingCertificates.signingCertificate,
    })
    .from(signingCertificates)
    .where(inArray(signingCertificates.id, ids));
  return new Map(rows.map((c) => [c.id, { ...c, certificate: Buffer.from(c.certificate, 'latin1'), certificateText: c.certificate }]));
}

type KeptParts = { invoiceId: string; form: number; signatureValue: Buffer | null; signingTime: Date | null; signatureId: string | null };

function writers(invoiceId: string): SignedRecordForms {
  const forms = signedRecordForms();
  if (!forms) throw new Error(`record ${invoiceId} is kept as parts, which only a process that loaded @vf/chain can read`);
  return forms;
}

/** A record's kept parts, whole: its row read, its certificate and signature values present. */
function partsOf(kept: KeptParts, row: StoredChainRecord | undefined, signer: ReadCertificate | undefined): SignedRecordParts {
  if (!row) throw new Error(`record ${kept.invoiceId} is kept as parts but its row is not stored`);
  if (!signer || signer.signingCertificate === null || kept.signatureValue === null || kept.signingTime === null) {
    throw new Error(`record ${kept.invoiceId} is kept as parts without its certificate or signature`);
  }
  return {
    signatureValue: kept.signatureValue,
    signingTime: kept.signingTime,
    signatureId: kept.signatureId,
    certificate: signer.certificateText,
    signingCertificate: signer.signingCertificate,
  };
}

/** A record kept as parts, written again from its row by its form's writer. */
function rebuilt(kept: KeptParts, row: StoredChainRecord | undefined, signer: ReadCertificate | undefined): string {
  return writers(kept.invoiceId).rebuild(kept.form, row!, partsOf(kept, row, signer));
}

// The columns a record is rebuilt from (StoredChainRecord), not the whole row: a chain's verification reads them for
// a thousand records a page, where every further column is parsed, mapped and copied to a thread for nothing.
const REBUILT_FROM = {
  id: invoices.id,
  systemSnapshotId: invoices.systemSnapshotId,
  recordType: invoices.recordType,
  subsanacion: invoices.subsanacion,
  rechazoPrevio: invoices.rechazoPrevio,
  sinRegistroPrevio: invoices.sinRegistroPrevio,
  issuerNif: invoices.issuerNif,
  issuerName: invoices.issuerName,
  generatedAtLiteral: invoices.generatedAtLiteral,
  previousInvoiceId: invoices.previousInvoiceId,
  hash: invoices.hash,
  ...STORED_INVOICE_CONTENT_COLUMNS,
};

/** These records as stored, with their lines and previous record: what rebuilding each needs. By record id. */
async function storedChainRecords(db: DbOrTx, ids: string[]): Promise<Map<string, StoredChainRecord>> {
  if (ids.length === 0) return new Map();
  const { prev, columns } = previousRecord();
  // One after the other: `db` may be a transaction's one connection, where queries cannot overlap.
  const rows = await db
    .select({ record: REBUILT_FROM, ...columns })
    .from(invoices)
    .leftJoin(prev, eq(prev.id, invoices.previousInvoiceId))
    .where(sql`${invoices.id} = ANY(${sql.param(ids)}::uuid[])`);
  const lines = await db
    .select()
    .from(invoiceLines)
    .where(sql`${invoiceLines.invoiceId} = ANY(${sql.param(ids)}::uuid[])`)
    .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.lineNo));
  // A chain's records name one or a few SistemaInformatico blocks: each is read and parsed once, not once a record.
  const snapshots = await snapshotsById(db, [...new Set(rows.map((r) => r.record.systemSnapshotId))]);
  const linesOf = new Map<string, StoredLine[]>();
  for (const line of lines) {
    const list = linesOf.get(line.invoiceId);
    if (list) list.push(storedLineOf(line));
    else linesOf.set(line.invoiceId, [storedLineOf(line)]);
  }
  return new Map(
    rows.map(({ record, prevIssuerNif, prevNumber, prevDate, prevHash }) => [
      record.id,
      {
        ...record,
        systemSnapshot: snapshots.get(record.systemSnapshotId)!,
        previous:
          record.previousInvoiceId && prevIssuerNif && prevNumber && prevDate && prevHash
            ? { issuerNif: prevIssuerNif, invoiceNumber: prevNumber, invoiceDate: prevDate, hash: prevHash }
            : null,
        lines: linesOf.get(record.id) ?? [],
      },
    ]),
  );
}

async function snapshotsById(db: DbOrTx, ids: string[]): Promise<Map<string, SistemaInformatico>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(systemSnapshots).where(inArray(systemSnapshots.id, ids));
  return new Map(rows.map((r) => [r.id, r.snapshot]));
}
