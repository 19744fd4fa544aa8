import { registrationsTotal } from '@vf/metrics';
import type { ItemOutcome } from '../invoices/invoice-registration-service';

/**
 * Counts each registration by its result: `created`, or the problem code the client gets; undefined stands for a
 * failure of ours (`internal_error`). A batch counts each of its items.
 */
export function countRegistrations(outcomes: (ItemOutcome | undefined)[]): void {
  for (const o of outcomes) registrationsTotal.inc({ result: o === undefined ? 'internal_error' : o.ok ? 'created' : o.error.code });
}
