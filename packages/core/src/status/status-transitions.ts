import type { AuthorityStatus } from './authority-status';

/** Who may move a record: the API on registration, a worker, the authority's answer (applied by a worker), the user, the reconciler. */
export type StatusActor = 'api' | 'worker' | 'authority' | 'user' | 'reconciler';

export interface StatusTransition {
  from: AuthorityStatus | 'new';
  to: AuthorityStatus;
  by: StatusActor;
  when: string;
}

/** Every allowed move of a record's status, and who makes it. Anything not listed here never happens. */
export const STATUS_TRANSITIONS: readonly StatusTransition[] = [
  { from: 'new', to: 'queued', by: 'api', when: 'the record is generated and chained' },
  {
    from: 'new',
    to: 'kept',
    by: 'api',
    when: 'the record is generated, signed and chained in NO VERI*FACTU: kept, never sent by the workers',
  },
  { from: 'queued', to: 'sent', by: 'worker', when: 'a message carrying it is recorded, before it goes' },
  { from: 'sent', to: 'sent', by: 'worker', when: 'the worker that sent it died before the answer; it goes again unchanged' },
  { from: 'error', to: 'sent', by: 'worker', when: 'a record in error with a next attempt goes again unchanged' },
  { from: 'sent', to: 'accepted', by: 'authority', when: 'EstadoRegistro Correcto, or a 3000 whose held huella is ours' },
  { from: 'sent', to: 'accepted_with_warnings', by: 'authority', when: 'EstadoRegistro AceptadoConErrores (2007 included)' },
  {
    from: 'error',
    to: 'accepted_with_warnings',
    by: 'authority',
    when: 'a 2007 the authority stored, which versions before migration 0016 kept in error (applied by that migration)',
  },
  { from: 'sent', to: 'rejected', by: 'authority', when: 'EstadoRegistro Incorrecto (a 3000 only when another record holds the number)' },
  {
    from: 'sent',
    to: 'queued',
    by: 'worker',
    when: 'no usable answer (transport error, timeout, 5xx, Server fault, no line): resent after a backoff',
  },
  {
    from: 'sent',
    to: 'error',
    by: 'worker',
    when: 'a message-level Client fault, an unknown answer, or no answer for longer than the error threshold',
  },
  {
    from: 'queued',
    to: 'error',
    by: 'worker',
    when: 'it cannot be sent (certificate, stored record) or waits behind an earlier record in error',
  },
  { from: 'error', to: 'error', by: 'worker', when: 'still failing: the reason or the next attempt changes' },
  { from: 'error', to: 'queued', by: 'user', when: 'POST /invoices/{id}/resend' },
  {
    from: 'error',
    to: 'queued',
    by: 'reconciler',
    when: "the taxpayer's certificate or data changed after the error, an operator resumed a stopped certificate, or the 2007 it waited behind was released (migration 0016)",
  },
];

/** True if `by` may move a record from `from` to `to`. */
export function canTransition(from: AuthorityStatus, to: AuthorityStatus, by: StatusActor): boolean {
  return STATUS_TRANSITIONS.some((t) => t.from === from && t.to === to && t.by === by);
}

/** The statuses from which `by` may move a record to `to`: what an SQL guard accepts. */
export function statusesMovableTo(to: AuthorityStatus, by: StatusActor): AuthorityStatus[] {
  return STATUS_TRANSITIONS.filter(
    (t): t is StatusTransition & { from: AuthorityStatus } => t.to === to && t.by === by && t.from !== 'new',
  ).map((t) => t.from);
}
