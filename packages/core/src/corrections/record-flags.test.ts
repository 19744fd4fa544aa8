import { cancellationFlags, correctionFlags, type ChainRecordType, type RecordHistoryEntry } from './record-flags';

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

  it('waits while any record of the invoice has no answer, and refuses a cancelled invoice', () => {
    for (const status of ['queued', 'sent', 'error', 'pending']) {
      expect(correctionFlags([r('registration', 'accepted'), r('correction', status)])).toEqual({ kind: 'awaiting_authority' });
    }
    expect(correctionFlags([r('registration', 'accepted'), r('cancellation', 'accepted')])).toEqual({ kind: 'cancelled' });
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
  });
});
