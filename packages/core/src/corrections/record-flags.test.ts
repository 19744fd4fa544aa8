import { cancellationFlags, correctionFlags, invoiceIsCancelled, type ChainRecordType, type RecordHistoryEntry } from './record-flags';

const r = (recordType: ChainRecordType, status: string): RecordHistoryEntry => ({ recordType, status });

describe('correctionFlags (operations matrix, AEAT "Validaciones y errores" annex 6)', () => {
  it('after a rejected alta: ALTA POR RECHAZO, Subsanacion=S RechazoPrevio=X', () => {
    expect(correctionFlags([r('registration', 'rejected')])).toEqual({ kind: 'flags', flags: { subsanacion: true, rechazoPrevio: 'X' } });
  });

  it('after an accepted alta, with or without warnings: ALTA DE SUBSANACIÓN, Subsanacion=S alone', () => {
    expect(correctionFlags([r('registration', 'accepted')])).toEqual({ kind: 'flags', flags: { subsanacion: true } });
    expect(correctionFlags([r('registration', 'accepted_with_warnings')])).toEqual({ kind: 'flags', flags: { subsanacion: true } });
  });

  it('after a rejected subsanación of a registered alta: RechazoPrevio=S', () => {
    const history = [r('registration', 'accepted'), r('correction', 'rejected')];
    expect(correctionFlags(history)).toEqual({ kind: 'flags', flags: { subsanacion: true, rechazoPrevio: 'S' } });
  });

  it('while nothing of the invoice is registered, every retry stays RechazoPrevio=X', () => {
    const history = [r('registration', 'rejected'), r('correction', 'rejected')];
    expect(correctionFlags(history)).toEqual({ kind: 'flags', flags: { subsanacion: true, rechazoPrevio: 'X' } });
  });

  it('after an accepted subsanación, a rejected anulación leaves the alta registered', () => {
    const history = [r('registration', 'rejected'), r('correction', 'accepted'), r('cancellation', 'rejected')];
    expect(correctionFlags(history)).toEqual({ kind: 'flags', flags: { subsanacion: true } });
  });

  it('waits while any record of the invoice has no answer, an anulación on its way included', () => {
    for (const status of ['queued', 'sent', 'error', 'pending']) {
      expect(correctionFlags([r('registration', 'accepted'), r('correction', status)])).toEqual({ kind: 'awaiting_authority' });
      expect(correctionFlags([r('registration', 'accepted'), r('cancellation', status)])).toEqual({ kind: 'awaiting_authority' });
    }
  });

  it('reactivates a cancelled invoice: ALTA DE SUBSANACIÓN (Subsanacion=S alone) whether the anulación followed an alta or stood alone', () => {
    expect(correctionFlags([r('registration', 'accepted'), r('cancellation', 'accepted')])).toEqual({
      kind: 'flags',
      flags: { subsanacion: true },
    });
    // SinRegistroPrevio=S created the anulación (OK(9)): the authority holds it all the same, so RechazoPrevio is not X.
    expect(correctionFlags([r('registration', 'rejected'), r('cancellation', 'accepted')])).toEqual({
      kind: 'flags',
      flags: { subsanacion: true },
    });
  });

  it('after a refused reactivation: ALTA POR RECHAZO DE SUBSANACIÓN (RechazoPrevio=S), never X while the anulación is held', () => {
    const history = [r('registration', 'accepted'), r('cancellation', 'accepted'), r('correction', 'rejected')];
    expect(correctionFlags(history)).toEqual({ kind: 'flags', flags: { subsanacion: true, rechazoPrevio: 'S' } });
    const alone = [r('registration', 'rejected'), r('cancellation', 'accepted'), r('correction', 'rejected')];
    expect(correctionFlags(alone)).toEqual({ kind: 'flags', flags: { subsanacion: true, rechazoPrevio: 'S' } });
  });
});

describe('invoiceIsCancelled', () => {
  it('an anulación that stands cancels; a rejected one does not', () => {
    expect(invoiceIsCancelled([r('registration', 'accepted')])).toBe(false);
    expect(invoiceIsCancelled([r('registration', 'accepted'), r('cancellation', 'queued')])).toBe(true);
    expect(invoiceIsCancelled([r('registration', 'accepted'), r('cancellation', 'accepted')])).toBe(true);
    expect(invoiceIsCancelled([r('registration', 'accepted'), r('cancellation', 'rejected')])).toBe(false);
  });

  it('only a subsanación the authority accepted after the anulación makes the invoice active again', () => {
    const cancelled = [r('registration', 'accepted'), r('cancellation', 'accepted')];
    for (const status of ['queued', 'sent', 'error', 'rejected'])
      expect(invoiceIsCancelled([...cancelled, r('correction', status)])).toBe(true);
    expect(invoiceIsCancelled([...cancelled, r('correction', 'accepted')])).toBe(false);
    expect(invoiceIsCancelled([...cancelled, r('correction', 'accepted_with_warnings')])).toBe(false);
    // Cancelled again after the reactivation.
    expect(invoiceIsCancelled([...cancelled, r('correction', 'accepted'), r('cancellation', 'sent')])).toBe(true);
  });
});

describe('cancellationFlags', () => {
  it('an accepted alta: plain ANULACIÓN', () => {
    expect(cancellationFlags([r('registration', 'accepted')])).toEqual({
      kind: 'flags',
      flags: { sinRegistroPrevio: false, rechazoPrevio: false },
    });
  });

  it('nothing registered at the authority: SinRegistroPrevio=S', () => {
    expect(cancellationFlags([r('registration', 'rejected')])).toEqual({
      kind: 'flags',
      flags: { sinRegistroPrevio: true, rechazoPrevio: false },
    });
  });

  it('after a rejected anulación: RechazoPrevio=S, with or without a registered alta', () => {
    expect(cancellationFlags([r('registration', 'accepted'), r('cancellation', 'rejected')])).toEqual({
      kind: 'flags',
      flags: { sinRegistroPrevio: false, rechazoPrevio: true },
    });
    expect(cancellationFlags([r('registration', 'rejected'), r('cancellation', 'rejected')])).toEqual({
      kind: 'flags',
      flags: { sinRegistroPrevio: true, rechazoPrevio: true },
    });
  });

  it('refuses a second anulación while the first stands, and waits for unanswered records', () => {
    expect(cancellationFlags([r('registration', 'accepted'), r('cancellation', 'queued')])).toEqual({ kind: 'cancelled' });
    expect(cancellationFlags([r('registration', 'sent')])).toEqual({ kind: 'awaiting_authority' });
    expect(cancellationFlags([r('registration', 'accepted'), r('cancellation', 'accepted')])).toEqual({ kind: 'cancelled' });
    // A reactivation still waiting, or refused, leaves the anulación standing.
    const reactivating = [r('registration', 'accepted'), r('cancellation', 'accepted'), r('correction', 'queued')];
    expect(cancellationFlags(reactivating)).toEqual({ kind: 'cancelled' });
    expect(cancellationFlags([...reactivating.slice(0, 2), r('correction', 'rejected')])).toEqual({ kind: 'cancelled' });
  });

  it('cancels a reactivated invoice again with a plain ANULACIÓN', () => {
    const history = [r('registration', 'accepted'), r('cancellation', 'accepted'), r('correction', 'accepted')];
    expect(cancellationFlags(history)).toEqual({ kind: 'flags', flags: { sinRegistroPrevio: false, rechazoPrevio: false } });
  });
});
