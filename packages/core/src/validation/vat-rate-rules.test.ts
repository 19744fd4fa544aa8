import { withLine } from '../testing';
import { errorAt, errorsOf } from './errors-of';

// An IVA S1 line of base 100 at `rate`, with matching totals; `date` is the operation date (the tax point).
function vatLine(rate: number, date?: string, surcharge?: number) {
  const tax = rate;
  const extra = surcharge === undefined ? {} : { surcharge_rate: surcharge, surcharge_amount: surcharge };
  return withLine(
    {
      regime_type: surcharge === undefined ? '01' : '18',
      operation_type: 'S1',
      base_amount: 100,
      tax_rate: rate,
      tax_amount: tax,
      ...extra,
    },
    { total_amount: 100 + tax + (surcharge ?? 0), total_tax_amount: tax + (surcharge ?? 0), ...(date ? { operation_date: date } : {}) },
  );
}

describe('IVA rate list and periods', () => {
  it.each([0, 4, 10, 21])('accepts %p% today', (rate) => {
    expect(errorsOf(vatLine(rate))).toEqual([]);
  });

  it.each([3, 12, 20, 22])('refuses %p% as not an IVA rate (1124)', (rate) => {
    expect(errorAt(vatLine(rate), 'breakdown[0].tax_rate')).toMatchObject({ code: 'invalid_vat_rate', authority_code: 1124 });
  });

  it('accepts 5% only for operations from 2022-07-01 to 2024-09-30 (1194)', () => {
    expect(errorsOf(vatLine(5, '2024-09-30'))).toEqual([]);
    expect(errorAt(vatLine(5), 'breakdown[0].tax_rate')).toMatchObject({ code: 'vat_rate_out_of_period', authority_code: 1194 });
    expect(errorAt(vatLine(5, '2022-06-30'), 'breakdown[0].tax_rate')).toMatchObject({ authority_code: 1194 });
  });

  it('accepts 2% and 7.5% only for operations in the last quarter of 2024 (1235, 1236)', () => {
    expect(errorsOf(vatLine(2, '2024-12-31'))).toEqual([]);
    expect(errorsOf(vatLine(7.5, '2024-10-01'))).toEqual([]);
    expect(errorAt(vatLine(2), 'breakdown[0].tax_rate')).toMatchObject({ authority_code: 1235 });
    expect(errorAt(vatLine(7.5, '2024-09-30'), 'breakdown[0].tax_rate')).toMatchObject({ authority_code: 1236 });
  });

  it('uses the operation date, else the issue date, as the tax point', () => {
    // Issue date 2026-11-20 is outside the 5% window, the operation date inside it.
    expect(errorsOf(vatLine(5, '2024-06-15'))).toEqual([]);
  });

  it('accepts the old 16/18/7/8% rates only for operations up to 2012 (1132)', () => {
    expect(errorsOf(vatLine(16, '2010-06-30'))).toEqual([]);
    expect(errorsOf(vatLine(18, '2012-08-31'))).toEqual([]);
    expect(errorAt(vatLine(18, '2013-01-01'), 'breakdown[0].tax_rate')).toMatchObject({ authority_code: 1132 });
    expect(errorAt(vatLine(8, '2012-05-01', 4), 'breakdown[0].surcharge_rate')).toMatchObject({ authority_code: 1135 });
  });

  it('does not apply the IVA list to IGIC', () => {
    const igic = withLine(
      { tax_type: '03', regime_type: '01', operation_type: 'S1', base_amount: 100, tax_rate: 7, tax_amount: 7 },
      { total_amount: 107, total_tax_amount: 7 },
    );
    expect(errorsOf(igic)).toEqual([]);
  });
});

describe('equivalence surcharge rates', () => {
  it.each([
    [21, 5.2, undefined],
    [21, 1.75, undefined],
    [10, 1.4, undefined],
    [4, 0.5, undefined],
    [0, 0.26, undefined],
    [5, 0.62, '2024-09-01'],
    [5, 0.5, '2022-12-01'],
    [2, 0.26, '2024-11-01'],
    [7.5, 1, '2024-11-01'],
    [0, 0, '2024-06-01'],
  ])('accepts IVA %p% with surcharge %p% (operation date %s)', (rate, surcharge, date) => {
    expect(errorsOf(vatLine(rate, date, surcharge))).toEqual([]);
  });

  it.each([
    [21, 1.4, undefined, 1162],
    [10, 5.2, undefined, 1163],
    [4, 1.4, undefined, 1164],
    [0, 0, undefined, 1170],
    [0, 0.26, '2024-06-01', 1165],
    [5, 0.5, '2024-09-01', 1167],
    [5, 0.62, '2022-12-01', 1168],
    [5, 1.4, '2023-06-01', 1160],
    [2, 0.5, '2024-11-01', 1166],
    [7.5, 1.4, '2024-11-01', 1169],
    [0, 0, '2022-12-01', 1277],
  ])('refuses IVA %p% with surcharge %p% (operation date %s, %i)', (rate, surcharge, date, authorityCode) => {
    expect(errorAt(vatLine(rate, date, surcharge), 'breakdown[0].surcharge_rate')).toMatchObject({
      code: 'surcharge_rate_mismatch',
      authority_code: authorityCode,
    });
  });

  it('refuses a surcharge rate outside the list (1127)', () => {
    expect(errorAt(vatLine(21, undefined, 3), 'breakdown[0].surcharge_rate')).toMatchObject({
      code: 'invalid_surcharge_rate',
      authority_code: 1127,
    });
  });
});
