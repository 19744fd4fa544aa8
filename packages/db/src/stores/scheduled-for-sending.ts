import { and, eq, inArray, isNotNull, or } from 'drizzle-orm';
import { WAITING_STATUSES } from '@vf/core';
import { invoices } from '../schema';

/**
 * Records the workers send on their own (statuses module: isScheduledForSending): waiting, or in `error` with a next
 * attempt planned (a long outage).
 */
export const scheduledForSending = or(
  inArray(invoices.authorityStatus, [...WAITING_STATUSES]),
  and(eq(invoices.authorityStatus, 'error'), isNotNull(invoices.nextAttemptAt)),
);
