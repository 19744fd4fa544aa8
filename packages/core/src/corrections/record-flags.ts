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
  /** The invoice's latest record is an anulación that stands (sent or not, but not rejected). */
  | { kind: 'cancelled' };

const ANSWERED_OK = new Set(['accepted', 'accepted_with_warnings']);

/** What the authority holds for the invoice: only records it accepted change its registry. */
function authorityHolds(history: RecordHistoryEntry[]): 'nothing' | 'alta' | 'anulacion' {
  let held: 'nothing' | 'alta' | 'anulacion' = 'nothing';
  for (const r of history) {
    if (ANSWERED_OK.has(r.status)) held = r.recordType === 'cancellation' ? 'anulacion' : 'alta';
  }
  return held;
}

function precondition(history: RecordHistoryEntry[]): FlagDecision<never> | undefined {
  const last = history[history.length - 1];
  if (last && last.recordType === 'cancellation' && last.status !== 'rejected') return { kind: 'cancelled' };
  if (history.some((r) => !ANSWERED_OK.has(r.status) && r.status !== 'rejected')) return { kind: 'awaiting_authority' };
  return undefined;
}

/** Flags of a subsanación (corrected alta), oldest record first in `history`. */
export function correctionFlags(history: RecordHistoryEntry[]): FlagDecision<CorrectionFlags> {
  const blocked = precondition(history);
  if (blocked) return blocked;
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
  const blocked = precondition(history);
  if (blocked) return blocked;
  const last = history[history.length - 1];
  return {
    kind: 'flags',
    flags: {
      sinRegistroPrevio: authorityHolds(history) === 'nothing',
      rechazoPrevio: last !== undefined && last.recordType === 'cancellation' && last.status === 'rejected',
    },
  };
}
