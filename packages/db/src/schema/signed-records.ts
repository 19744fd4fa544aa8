import { sql } from 'drizzle-orm';
import { check, customType, integer, pgTable, serial, smallint, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { invoices } from './invoices';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * Each certificate that signed records, kept once: its base64 as the records carry it in X509Certificate, and the
 * deflate dictionary its records are packed against (the first record it signed, without the certificate).
 */
export const signingCertificates = pgTable(
  'signing_certificates',
  {
    id: serial('id').primaryKey(),
    /** SHA-256 of the base64 text. */
    digest: bytea('digest').notNull(),
    certificate: text('certificate').notNull(),
    dictionary: bytea('dictionary').notNull(),
    /** SigningCertificate's content in its records kept as parts (the same in each); null until the first is. */
    signingCertificate: text('signing_certificate'),
  },
  (t) => [unique('signing_certificates_digest_uq').on(t.digest)],
);

/**
 * A record as it was signed: the exact bytes every message that carries it embeds (written once, never changed).
 * One of three forms: its signature's own values (`form`: the writer that rebuilds it from its row, decision 0064),
 * packed (its certificate in signing_certificates, the rest deflated against that certificate's dictionary, decision
 * 0048), or, for rows kept before packing, its text.
 */
export const signedRecords = pgTable(
  'signed_records',
  {
    invoiceId: uuid('invoice_id')
      .primaryKey()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    xml: text('xml'),
    certificateId: integer('certificate_id').references(() => signingCertificates.id, { onDelete: 'restrict' }),
    packed: bytea('packed'),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
    form: smallint('form'),
    /** The RSA signature value, raw (base64 in the record). */
    signatureValue: bytea('signature_value'),
    signingTime: timestamp('signing_time', { withTimezone: true, precision: 3 }),
    /** The uuid of the signature's Id (`xmldsig-<uuid>`) when it is not the record's own id. */
    signatureId: uuid('signature_id'),
  },
  (t) => [
    check('signed_records_one_form', sql`num_nonnulls(${t.xml}, ${t.packed}, ${t.form}) = 1`),
    check(
      'signed_records_parts_whole',
      sql`(${t.form} IS NULL) = (${t.signatureValue} IS NULL) AND (${t.form} IS NULL) = (${t.signingTime} IS NULL) AND (${t.form} IS NULL OR ${t.certificateId} IS NOT NULL) AND (${t.form} IS NOT NULL OR ${t.signatureId} IS NULL)`,
    ),
  ],
);
