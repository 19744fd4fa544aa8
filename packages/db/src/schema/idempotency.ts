import { char, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

export type IdempotencyState = 'running' | 'completed';

/** One Idempotency-Key of an account: claimed by the first request, then holding its answer for 24 h. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    key: varchar('key', { length: 255 }).notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    fingerprint: char('fingerprint', { length: 64 }).notNull(),
    state: text('state').$type<IdempotencyState>().notNull(),
    /** The claim of the request running it; a claim past locked_until was abandoned (a crashed process). */
    owner: uuid('owner').notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }).notNull(),
    responseStatus: integer('response_status'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    /** Base64 AES-256-GCM envelope (MASTER_KEY) of the answer's body. */
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_pk', columns: [t.accountId, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);
