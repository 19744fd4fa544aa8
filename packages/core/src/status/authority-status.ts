/**
 * The status of one chain record at the authority. Each means one thing:
 * - `queued`: waiting for the workers to send it (again).
 * - `sent`: carried by a message whose answer has not been recorded yet.
 * - `accepted` / `accepted_with_warnings`: registered by the authority (the second with a warning code).
 * - `rejected`: the authority refused this record itself (`EstadoRegistro=Incorrecto`).
 * - `kept`: generated in NO VERI*FACTU, signed and kept: never sent by the workers (only on the authority's request).
 * - `error`: the service could not get the record registered and a person should look. It always says why and what
 *   happens next: a `next_attempt_at` (the workers keep trying) or, without one, the action the user must take.
 */
export const AUTHORITY_STATUSES = ['queued', 'sent', 'accepted', 'accepted_with_warnings', 'rejected', 'error', 'kept'] as const;

export type AuthorityStatus = (typeof AUTHORITY_STATUSES)[number];

/** Statuses the workers are working on: the record will be sent (again) without anyone doing anything. */
export const WAITING_STATUSES: readonly AuthorityStatus[] = ['queued', 'sent'];

/** Statuses nothing moves out of: the authority has decided about this record. */
export const FINAL_STATUSES: readonly AuthorityStatus[] = ['accepted', 'accepted_with_warnings', 'rejected'];

export function isWaitingStatus(status: AuthorityStatus): boolean {
  return WAITING_STATUSES.includes(status);
}

export function isFinalStatus(status: AuthorityStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

/**
 * True while the workers will send the record again on their own: it is waiting, or it is in `error` with a next
 * attempt planned (a long outage). An `error` without `nextAttemptAt` waits for the user (or a change of the
 * taxpayer's certificate or data).
 */
export function isScheduledForSending(record: { status: AuthorityStatus; nextAttemptAt: Date | null }): boolean {
  return isWaitingStatus(record.status) || (record.status === 'error' && record.nextAttemptAt !== null);
}
