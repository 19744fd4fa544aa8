/**
 * Which record the authority expects next for an invoice (the operations matrix, annex 6 of AEAT's "Validaciones y
 * errores"), decided from the invoice's own records and what the authority answered to each. Pure: the service reads
 * the history under the chain lock and stores the flags on the new record.
 */
export type ChainRecordType = 'registration' | 'correction' | 'cancellation';

export interface RecordHistoryEntry {
  recordType: ChainRecordType;
  /** The record's authority_status. */
  status: string;
}

export interface CorrectionFlags {
  subsanacion: true;
  /** X: the authority holds no alta of this invoice; S: the previous subsanación was rejected. */
  rechazoPrevio?: 'S' | 'X';
}

export interface CancellationFlags {
  /** The authority holds no record of this invoice: SinRegistroPrevio=S. */
  sinRegistroPrevio: boolean;
  /** The previous anulación was rejected: RechazoPrevio=S. */
  rechazoPrevio: boolean;
}

export type FlagDecision<F> =
  | { kind: 'flags'; flags: F }
  /** A record of the invoice has no answer yet (queued, being sent, or in error): its outcome decides the flags. */
  | { kind: 'awaiting_authority' }
  /** An anulación of the invoice stands (see invoiceIsCancelled): a second one is refused. */
  | { kind: 'cancelled' };

// A record kept in NO VERI*FACTU stands as an accepted one does: the records kept are the registry the authority
// receives on its request, unchanged, in chain order.
const ANSWERED_OK = new Set(['accepted', 'accepted_with_warnings', 'kept']);

/** What the authority holds for the invoice: only records it accepted change its registry. */
function authorityHolds(history: RecordHistoryEntry[]): 'nothing' | 'alta' | 'anulacion' {
  let held: 'nothing' | 'alta' | 'anulacion' = 'nothing';
  for (const r of history) {
    if (ANSWERED_OK.has(r.status)) held = r.recordType === 'cancellation' ? 'anulacion' : 'alta';
  }
  return held;
}

/**
 * Whether the invoice is cancelled, oldest record first in `history`: an anulación that stands (sent, waiting or
 * accepted; not rejected) cancels it, and only a subsanación the authority accepted after it makes it active again
 * (AEAT Validaciones y errores, annex 6: an ALTA DE SUBSANACIÓN of an anulado record "reactiva el registro anulado",
 * OK(5)). A subsanación still waiting, or refused, leaves it cancelled: the authority still holds the anulación.
 */
export function invoiceIsCancelled(history: RecordHistoryEntry[]): boolean {
  let cancelled = false;
  for (const r of history) {
    if (r.recordType === 'cancellation') cancelled ||= r.status !== 'rejected';
    else if (ANSWERED_OK.has(r.status)) cancelled = false;
  }
  return cancelled;
}

const awaiting = (history: RecordHistoryEntry[]) => history.some((r) => !ANSWERED_OK.has(r.status) && r.status !== 'rejected');

/**
 * Flags of a subsanación (corrected alta), oldest record first in `history`. A cancelled invoice may be corrected
 * too: the matrix admits a subsanación whatever the authority holds (ALTA DE SUBSANACIÓN and ALTA POR RECHAZO DE
 * SUBSANACIÓN with an existing anulación: OK(5), the invoice is in force again), with the same flags as for a
 * registered alta. It waits until the anulación is answered: whether the authority holds it decides RechazoPrevio.
 */
export function correctionFlags(history: RecordHistoryEntry[]): FlagDecision<CorrectionFlags> {
  if (awaiting(history)) return { kind: 'awaiting_authority' };
  // ALTA POR RECHAZO (and its "sin registro previo" variants, the same flags): nothing of this invoice is registered.
  if (authorityHolds(history) === 'nothing') return { kind: 'flags', flags: { subsanacion: true, rechazoPrevio: 'X' } };
  const last = history[history.length - 1];
  // ALTA POR RECHAZO DE SUBSANACIÓN: the alta is registered and the subsanación sent after it was refused.
  if (last.recordType === 'correction' && last.status === 'rejected')
    return { kind: 'flags', flags: { subsanacion: true, rechazoPrevio: 'S' } };
  return { kind: 'flags', flags: { subsanacion: true } };
}

/** Flags of an anulación, oldest record first in `history`. */
export function cancellationFlags(history: RecordHistoryEntry[]): FlagDecision<CancellationFlags> {
  if (invoiceIsCancelled(history)) return { kind: 'cancelled' };
  if (awaiting(history)) return { kind: 'awaiting_authority' };
  const last = history[history.length - 1];
  return {
    kind: 'flags',
    flags: {
      sinRegistroPrevio: authorityHolds(history) === 'nothing',
      rechazoPrevio: last !== undefined && last.recordType === 'cancellation' && last.status === 'rejected',
    },
  };
}
