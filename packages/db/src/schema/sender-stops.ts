import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Certificates the authority suspended (4141): no message goes under one until an operator resumes it. Kept here, not
 * in Redis, so that a restart, a flushed Redis or another worker cannot forget a stop.
 */
export const senderStops = pgTable('sender_stops', {
  /** SHA-256 fingerprint of the client certificate, as `openssl x509 -fingerprint -sha256` prints it. */
  certificateFingerprint: text('certificate_fingerprint').primaryKey(),
  certificateSubject: text('certificate_subject').notNull(),
  code: integer('code').notNull(),
  message: text('message').notNull(),
  stoppedAt: timestamp('stopped_at', { withTimezone: true }).notNull().defaultNow(),
});
