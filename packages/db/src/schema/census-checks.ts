import { char, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/** What the census answered about a NIF and a name, shared by the deployment's accounts; never "not processed". */
export const censusAnswers = pgTable(
  'census_answers',
  {
    nif: text('nif').notNull(),
    /** SHA-256 (hex) of the name as the census compares it: the name itself is not kept to find the answer. */
    nameDigest: char('name_digest', { length: 64 }).notNull(),
    detail: text('detail').notNull(),
    /** The census's spelling, when it answered that the name asked is only similar. */
    censusName: text('census_name'),
    /** SHA-256 (hex) of the request the census answered. */
    requestDigest: char('request_digest', { length: 64 }).notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: 'census_answers_pk', columns: [t.nif, t.nameDigest] })],
);

/** An account's evidence of each tax ID it checked: when, the answer, where it came from, the request's digest. */
export const taxIdChecks = pgTable(
  'tax_id_checks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    taxId: text('tax_id').notNull(),
    result: text('result').notNull(),
    detail: text('detail').notNull(),
    source: text('source').notNull(),
    requestDigest: char('request_digest', { length: 64 }).notNull(),
    /** VIES's consultation number, when VIES gave one. */
    requestIdentifier: text('request_identifier'),
    /** VIES's fault code, when it could not answer. */
    faultCode: text('fault_code'),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('tax_id_checks_account_idx').on(t.accountId, t.recordedAt.desc())],
);
