import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The workers running now, as each last said at a summary sweep. A worker's row goes when it stops; a killed worker's
 * row goes stale. The last worker to stop writes the summary due before the system shuts down.
 */
export const workerPresence = pgTable('worker_presence', {
  workerId: text('worker_id').primaryKey(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});
