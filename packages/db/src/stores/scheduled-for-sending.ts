import { sql } from 'drizzle-orm';
import { WAITING_STATUSES } from '@vf/core';
import { invoices } from '../schema';
import { literalText } from './literal-text';

/**
 * Records the workers send on their own (statuses module: isScheduledForSending): waiting, or in `error` with a next
 * attempt planned (a long outage). The statuses are literals: the chain index the workers read holds no record at rest
 * (accepted, rejected or kept: migration 0036), and a generic plan reads it only when the statement says which
 * statuses it asks for (a parameter says nothing).
 */
export const scheduledForSending = sql`(${invoices.authorityStatus} IN (${sql.join(WAITING_STATUSES.map(literalText), sql`, `)})
  OR (${invoices.authorityStatus} = 'error' AND ${invoices.nextAttemptAt} IS NOT NULL))`;
