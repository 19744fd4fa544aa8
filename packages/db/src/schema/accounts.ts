import { boolean, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const plans = pgTable('plans', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  monthlyQuota: integer('monthly_quota').notNull(),
  /** Tax IDs an account may check in a calendar month (Europe/Madrid). */
  monthlyTaxIdChecks: integer('monthly_tax_id_checks').notNull().default(100),
  isDefault: boolean('is_default').notNull().default(false),
});

export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  /** Stored lower-cased; unique. */
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  /** Hex SHA-256 of the API key: the only form in which the key is kept. */
  apiKeyDigest: text('api_key_digest').notNull().unique(),
  /** First characters of the key, safe to show ("vfk_ab12…"). */
  apiKeyHint: text('api_key_hint').notNull(),
  apiKeyCreatedAt: timestamp('api_key_created_at', { withTimezone: true }).notNull().defaultNow(),
  planId: text('plan_id')
    .notNull()
    .references(() => plans.id),
  /** `recipient_check` for registrations that ask for none (null: no check); migration 0028 holds its CHECK. */
  recipientCheck: text('recipient_check').$type<'warn' | 'refuse'>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * How much of an account's monthly quota ("YYYY-MM", Europe/Madrid) is handed out to its chains as allowances:
 * the registrations themselves are counted on the chains (see quota-store.ts).
 */
export const quotaAllocations = pgTable(
  'quota_allocations',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    period: text('period').notNull(),
    allocated: integer('allocated').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'quota_allocations_pk', columns: [t.accountId, t.period] })],
);

/** Dashboard sign-in sessions; the cookie carries a random token, the table only its digest. */
export const webSessions = pgTable('web_sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  tokenDigest: text('token_digest').notNull().unique(),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  csrfToken: text('csrf_token').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
