import { f1Request } from '../testing';
import { errorAt, errorsOf, TODAY, warningsOf } from './errors-of';
import { validateInvoiceRequest } from './validate-invoice-request';

const warningAt = (body: unknown, field: string) => validateInvoiceRequest(body, { today: TODAY }).warnings.find((w) => w.field === field);

const lines = [
  { regime_type: '01', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 },
  { regime_type: '18', operation_type: 'S1', base_amount: 200, tax_rate: 10, tax_amount: 20, surcharge_rate: 1.4, surcharge_amount: 2.8 },
  { regime_type: '01', operation_type: 'E1', base_amount: 50 },
];

describe('invoice totals against the breakdown', () => {
  it('accepts totals equal to the breakdown: tax = Σ tax + surcharge, total = Σ base + tax + surcharge', () => {
    expect(errorsOf(f1Request({ breakdown: lines, total_tax_amount: 43.8, total_amount: 393.8 }))).toEqual([]);
    expect(warningsOf(f1Request({ breakdown: lines, total_tax_amount: 43.8, total_amount: 393.8 }))).toEqual([]);
  });

  it('accepts a total_tax_amount more than 10.00 away with the warning the authority stores it with (2006), explained', () => {
    const off = f1Request({ breakdown: lines, total_tax_amount: 53.81, total_amount: 393.8 });
    expect(errorsOf(off)).toEqual([]);
    expect(warningAt(off, 'total_tax_amount')).toMatchObject({
      code: 'total_mismatch',
      authority_code: 2006,
      explanation: { es: expect.stringMatching(/cuota total.*subsanación/), en: expect.stringMatching(/total tax.*subsanación/) },
    });
    const near = f1Request({ breakdown: lines, total_tax_amount: 53.8, total_amount: 393.8 });
    expect(errorsOf(near)).toEqual([]);
    expect(warningsOf(near)).toEqual(['total_tax_amount:total_rounding']);
  });

  it('accepts a total_amount more than 10.00 away with 2005 and warns about a few cents without a code', () => {
    expect(warningAt(f1Request({ breakdown: lines, total_tax_amount: 43.8, total_amount: 383.79 }), 'total_amount')).toMatchObject({
      code: 'total_mismatch',
      authority_code: 2005,
    });
    expect(warningAt(f1Request({ breakdown: lines, total_tax_amount: 43.8, total_amount: 393.81 }), 'total_amount')).not.toHaveProperty(
      'authority_code',
    );
    expect(warningsOf(f1Request({ breakdown: lines, total_tax_amount: 43.8, total_amount: 393.81 }))).toEqual([
      'total_amount:total_rounding',
    ]);
  });

  it.each(['03', '05', '08', '09'])('skips the totals check when a line has regime %s', (regime) => {
    const operation = regime === '08' ? { operation_type: 'N2' } : { operation_type: 'S1', tax_rate: 21, tax_amount: 21 };
    const body = f1Request({
      breakdown: [{ regime_type: regime, base_amount: 100, ...operation }],
      total_amount: 500,
      total_tax_amount: 0,
    });
    expect(errorsOf(body)).toEqual([]);
  });

  it('adds negative lines of a corrective invoice correctly', () => {
    const body = f1Request({
      invoice_type: 'R4',
      corrected_invoices: [{ invoice_number: 'A-1', invoice_date: '2026-10-01' }],
      breakdown: [
        { regime_type: '01', operation_type: 'S1', base_amount: -100, tax_rate: 21, tax_amount: -21 },
        { regime_type: '01', operation_type: 'S1', base_amount: 40, tax_rate: 10, tax_amount: 4 },
      ],
      total_amount: -77,
      total_tax_amount: -17,
    });
    expect(errorsOf(body)).toEqual([]);
    expect(warningsOf({ ...body, total_amount: 77 })).toEqual(['total_amount:total_mismatch']);
  });
});

describe('simplified invoices and large totals', () => {
  const f2 = (base: number, tax: number) =>
    f1Request({
      invoice_type: 'F2',
      recipient: undefined,
      breakdown: [{ regime_type: '01', operation_type: 'S1', base_amount: base, tax_rate: 21, tax_amount: tax }],
      total_amount: base + tax,
      total_tax_amount: tax,
    });

  it('accepts an F2 up to 400.00 without a warning', () => {
    expect(warningsOf(f2(330, 69.3))).toEqual([]);
  });

  it('warns above 400.00 (RD 1619/2012 art. 4), which the authority does not check', () => {
    expect(errorsOf(f2(1000, 210))).toEqual([]);
    expect(warningsOf(f2(1000, 210))).toEqual(['total_amount:simplified_invoice_over_400']);
  });

  it('refuses an F2 whose base plus tax exceeds 3,000.00 + 10.00 (1150), unless it has no identified recipient (art. 6.1.d)', () => {
    expect(errorsOf(f2(2487.6, 522.4))).toEqual([]);
    expect(errorAt(f2(2487.61, 522.4), 'breakdown')).toMatchObject({ code: 'simplified_invoice_over_cap', authority_code: 1150 });
    expect(errorsOf({ ...f2(2487.61, 522.4), without_recipient_art_61d: true })).toEqual([]);
  });

  it('warns that a total of 100,000,000.00 or more is flagged as Macrodato', () => {
    const big = f1Request({
      breakdown: [{ regime_type: '01', operation_type: 'S1', base_amount: 100000000, tax_rate: 21, tax_amount: 21000000 }],
      total_amount: 121000000,
      total_tax_amount: 21000000,
    });
    expect(errorsOf(big)).toEqual([]);
    expect(warningsOf(big)).toEqual(['total_amount:macrodato']);
  });
});
