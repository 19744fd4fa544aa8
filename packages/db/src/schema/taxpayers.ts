import { boolean, customType, index, pgTable, text, timestamp, unique, uuid, varchar } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export const taxpayers = pgTable(
  'taxpayers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    nif: varchar('nif', { length: 9 }).notNull(),
    name: varchar('name', { length: 120 }).notNull(),
    isProduction: boolean('is_production').notNull().default(false),
    /** 'path' (file inside CERT_DIR, copied in at save time) or 'upload' (base64 PKCS#12); null = social-collaborator mode. */
    certificateSource: text('certificate_source'),
    /** The path the client gave, for display; the PKCS#12 bytes themselves are in certificate_p12. */
    certificatePath: text('certificate_path'),
    /** AES-256-GCM envelope (iv|tag|ciphertext) of the PKCS#12 file. */
    certificateP12: bytea('certificate_p12'),
    /** AES-256-GCM envelope of the PKCS#12 password. */
    certificatePassword: bytea('certificate_password'),
    certificateSubject: text('certificate_subject'),
    certificateNif: text('certificate_nif'),
    certificateNotBefore: timestamp('certificate_not_before', { withTimezone: true }),
    certificateNotAfter: timestamp('certificate_not_after', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('taxpayers_account_nif_uq').on(t.accountId, t.nif), index('taxpayers_account_idx').on(t.accountId)],
);
