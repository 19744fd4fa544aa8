import { sql } from 'drizzle-orm';
import { check, customType, integer, pgTable, serial, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
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
  },
  (t) => [unique('signing_certificates_digest_uq').on(t.digest)],
);

/**
 * A record as it was signed: the exact bytes every message that carries it embeds (written once, never changed).
 * Packed (its certificate in signing_certificates, the rest deflated against that certificate's dictionary), or, for
 * rows kept before packing, its text.
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
  },
  (t) => [check('signed_records_one_form', sql`(${t.xml} IS NULL) <> (${t.packed} IS NULL)`)],
);
