import type { ChainRecord } from '@vf/core';
import type { StoredRecord } from './registry';

// AEAT's operations matrix (AEAT Validaciones y errores, annex 6 "Operativas admisibles"): what an alta or anulación may do given what the
// authority already holds for the invoice. AEAT documents the outcomes (OK(n)/ERROR(n)) but not which code
// each ERROR carries; the codes below are the errores.properties entries whose text fits each case.

/** Flag combinations refused on content whatever the authority holds (list L17). */
export function flagError(record: ChainRecord): number | undefined {
  if (record.kind === 'cancellation') return undefined;
  const flags = record.flags;
  // RechazoPrevio=X only with Subsanacion=S (1153); RechazoPrevio=S only with Subsanacion=S (1161).
  if (flags?.rechazoPrevio === 'X' && !flags.subsanacion) return 1153;
  if (flags?.rechazoPrevio === 'S' && !flags.subsanacion) return 1161;
  return undefined;
}

export interface MatrixError {
  code: number;
  /** 3000: answer with RegistroDuplicado describing what is held. */
  duplicate?: StoredRecord;
}

/** Whether the authority needs the invoice to exist (subsanación, anulación) or not to exist (alta), undefined when allowed. */
export function matrixError(record: ChainRecord, held: StoredRecord | undefined): MatrixError | undefined {
  if (record.kind === 'cancellation') {
    if (record.sinRegistroPrevio) {
      // OK(9) creates the anulación; ERROR(10) when anything is held: a duplicate alta, or an invoice already cancelled.
      if (!held) return undefined;
      return held.state === 'Anulado' ? { code: 3001 } : { code: 3000, duplicate: held };
    }
    // OK(7) cancels the alta, OK(8) re-cancels an anulada invoice; ERROR(6) when nothing is held.
    return held ? undefined : { code: 3002 };
  }
  const correction = record.flags?.subsanacion === true && record.flags.rechazoPrevio !== 'X';
  // OK(4) replaces, OK(5) reactivates; ERROR(3) when nothing is held.
  if (correction) return held ? undefined : { code: 3002 };
  // ALTA, ALTA POR RECHAZO and the SIN REGISTRO PREVIO variants: OK(1) when nothing is held, ERROR(2) otherwise.
  return held ? { code: 3000, duplicate: held } : undefined;
}

/** Whether the record changes an invoice the authority holds (a subsanación or an anulación of it). */
export function updatesHeld(record: ChainRecord, held: StoredRecord | undefined): boolean {
  return held !== undefined && (record.kind === 'cancellation' || record.flags?.subsanacion === true);
}
