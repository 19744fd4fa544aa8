import { f1Request } from '../testing';
import { errorAt, errorsOf } from './errors-of';

describe('invoice and operation dates', () => {
  it('refuses an issue date after today in Madrid (1112)', () => {
    expect(errorAt(f1Request({ invoice_date: '2026-11-23' }), 'invoice_date')).toMatchObject({
      code: 'invoice_date_in_future',
      authority_code: 1112,
    });
    expect(errorsOf(f1Request({ invoice_date: '2026-11-22' }))).toEqual([]);
  });

  it('refuses an issue date before VERI*FACTU started on 2024-10-28 (1152)', () => {
    expect(errorAt(f1Request({ invoice_date: '2024-10-27' }), 'invoice_date')).toMatchObject({
      code: 'invoice_date_too_early',
      authority_code: 1152,
    });
    expect(errorsOf(f1Request({ invoice_date: '2024-10-28' }))).toEqual([]);
  });

  it('refuses an issue date older than twenty years (1133)', () => {
    expect(errorsOf(f1Request({ invoice_date: '2025-01-01' }), '2045-06-01')).toEqual(['invoice_date:invoice_date_too_old']);
  });

  it('drops an operation date equal to the issue date (FechaOperacion only when it differs)', () => {
    expect(errorsOf(f1Request({ operation_date: '2026-11-20' }))).toEqual([]);
  });

  it('accepts an operation date before the issue date', () => {
    expect(errorsOf(f1Request({ operation_date: '2026-10-31' }))).toEqual([]);
  });

  it('refuses an operation date after the issue date unless every line is regime 14 or 15 (1146)', () => {
    expect(errorAt(f1Request({ invoice_date: '2026-11-01', operation_date: '2026-11-15' }), 'operation_date')).toMatchObject({
      code: 'operation_date_after_invoice_date',
      authority_code: 1146,
    });
    const tractoSucesivo = f1Request({
      invoice_date: '2026-11-01',
      operation_date: '2026-11-15',
      breakdown: [{ regime_type: '15', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 }],
    });
    expect(errorsOf(tractoSucesivo)).toEqual([]);
  });

  it('refuses a future operation date unless regime 14/15 (1173), and beyond next year in any case (1125)', () => {
    expect(errorAt(f1Request({ operation_date: '2026-12-15' }), 'operation_date')).toMatchObject({
      code: 'operation_date_in_future',
      authority_code: 1173,
    });
    const regime15 = { breakdown: [{ regime_type: '15', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 }] };
    expect(errorsOf(f1Request({ operation_date: '2027-12-31', ...regime15 }))).toEqual([]);
    expect(errorsOf(f1Request({ operation_date: '2028-01-01', ...regime15 }))).toEqual(['operation_date:operation_date_too_late']);
  });

  it('counts a mixed breakdown (regime 15 and 01) as not pending accrual', () => {
    const body = f1Request({
      operation_date: '2026-12-15',
      breakdown: [
        { regime_type: '15', operation_type: 'S1', base_amount: 50, tax_rate: 21, tax_amount: 10.5 },
        { regime_type: '01', operation_type: 'S1', base_amount: 50, tax_rate: 21, tax_amount: 10.5 },
      ],
    });
    expect(errorsOf(body)).toEqual(['operation_date:operation_date_in_future']);
  });

  it('refuses an operation date older than twenty years (1134)', () => {
    expect(errorAt(f1Request({ operation_date: '2006-11-21' }), 'operation_date')).toMatchObject({
      code: 'operation_date_too_old',
      authority_code: 1134,
    });
  });

  it('judges "today" by the date passed in, not the machine clock', () => {
    expect(errorsOf(f1Request({ invoice_date: '2026-11-20' }), '2026-11-19')).toEqual(['invoice_date:invoice_date_in_future']);
  });
});
