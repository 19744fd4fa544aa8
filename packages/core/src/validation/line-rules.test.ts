import { f1Request, withLine } from '../testing';
import { errorAt, errorsOf, warningsOf } from './errors-of';
import { validateInvoiceRequest } from './validate-invoice-request';

// Totals that match a single line, so each test sees only the rule it is about.
const totals = (base: number, tax = 0, surcharge = 0) => ({ total_amount: base + tax + surcharge, total_tax_amount: tax + surcharge });
const line = (fields: Record<string, unknown>) => ({ regime_type: '01', ...fields });

describe('regime presence and lists', () => {
  it('requires regime_type for IVA (also when tax_type is left out) and IGIC (1245)', () => {
    expect(
      errorAt(withLine({ operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 }), 'breakdown[0].regime_type'),
    ).toMatchObject({ code: 'required', authority_code: 1245 });
    expect(
      errorsOf(withLine({ tax_type: '03', operation_type: 'S1', base_amount: 100, tax_rate: 7, tax_amount: 7 }, totals(100, 7))),
    ).toEqual(['breakdown[0].regime_type:required']);
  });

  it('warns about IPSI without regime until the end of 2026 and refuses it from 2027 (2009)', () => {
    const body = withLine({ tax_type: '02', operation_type: 'S1', base_amount: 100, tax_rate: 4, tax_amount: 4 }, totals(100, 4));
    expect(errorsOf(body)).toEqual([]);
    expect(warningsOf(body)).toEqual(['breakdown[0].regime_type:ipsi_regime_missing']);
    expect(errorAt({ ...body, invoice_date: '2027-01-02' }, 'breakdown[0].regime_type', '2027-01-02')).toMatchObject({
      code: 'required',
      authority_code: 2009,
    });
  });

  it('warns about IPSI with a regime outside the IPSI list until the end of 2026 and refuses it from 2027 (2009, 1246)', () => {
    const body = withLine(
      { tax_type: '02', regime_type: '17', operation_type: 'S1', base_amount: 100, tax_rate: 4, tax_amount: 4 },
      totals(100, 4),
    );
    expect(errorsOf(body, '2026-12-31')).toEqual([]);
    const warning = validateInvoiceRequest(body, { today: '2026-12-31' }).warnings;
    expect(warning).toEqual([
      expect.objectContaining({ field: 'breakdown[0].regime_type', code: 'ipsi_regime_outside_list', authority_code: 2009 }),
    ]);
    expect(warning[0].explanation?.en).toMatch(/outside the IPSI list/);
    // The date the rule is applied on decides, not the invoice's date.
    expect(errorAt(body, 'breakdown[0].regime_type', '2027-01-01')).toMatchObject({ code: 'invalid_code', authority_code: 1246 });
  });

  it('refuses a regime for "other" taxes (1260) and regimes outside the tax list (1246)', () => {
    expect(
      errorAt(
        withLine({ tax_type: '05', regime_type: '01', operation_type: 'N1', base_amount: 100 }, totals(100)),
        'breakdown[0].regime_type',
      ),
    ).toMatchObject({ authority_code: 1260 });
    expect(errorsOf(withLine({ tax_type: '05', operation_type: 'N1', base_amount: 100 }, totals(100)))).toEqual([]);
    expect(
      errorAt(
        withLine(line({ regime_type: '21', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 })),
        'breakdown[0].regime_type',
      ),
    ).toMatchObject({
      authority_code: 1246,
      message: 'regime_type for tax_type 01 must be one of 01, 02, 03, 04, 05, 06, 07, 08, 09, 10, 11, 14, 15, 17, 18, 19, 20.',
    });
    expect(
      errorsOf(
        withLine({ tax_type: '03', regime_type: '21', operation_type: 'S1', base_amount: 100, tax_rate: 7, tax_amount: 7 }, totals(100, 7)),
      ),
    ).toEqual([]);
    expect(
      errorAt(
        withLine({ tax_type: '02', regime_type: '99', operation_type: 'S1', base_amount: 100, tax_rate: 4, tax_amount: 4 }, totals(100, 4)),
        'breakdown[0].regime_type',
      ),
    ).toMatchObject({ authority_code: 1246 });
    expect(errorAt(withLine(line({ tax_type: '04', operation_type: 'S1', base_amount: 100 })), 'breakdown[0].tax_type')).toMatchObject({
      authority_code: 1218,
    });
  });
});

describe('operation type', () => {
  it('is required (1195) and must be a known code (1181)', () => {
    expect(errorAt(withLine(line({ base_amount: 100 }), totals(100)), 'breakdown[0].operation_type')).toMatchObject({
      code: 'required',
      authority_code: 1195,
    });
    expect(errorAt(withLine(line({ operation_type: 'S3', base_amount: 100 }), totals(100)), 'breakdown[0].operation_type')).toMatchObject({
      code: 'invalid_code',
    });
  });

  it('S1 needs a rate and a tax amount (1208)', () => {
    expect(errorsOf(withLine(line({ operation_type: 'S1', base_amount: 100 }), totals(100)))).toEqual([
      'breakdown[0].tax_rate:required',
      'breakdown[0].tax_amount:required',
    ]);
  });

  it('S1 tax amount must be base × rate within ±10.00 (1142), with the base sign (1143)', () => {
    expect(
      errorAt(
        withLine(line({ operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 31.01 }), totals(100, 31.01)),
        'breakdown[0].tax_amount',
      ),
    ).toMatchObject({
      code: 'tax_amount_mismatch',
      authority_code: 1142,
    });
    expect(errorsOf(withLine(line({ operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 31 }), totals(100, 31)))).toEqual([]);
    expect(
      warningsOf(withLine(line({ operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21.02 }), totals(100, 21.02))),
    ).toEqual(['breakdown[0].tax_amount:tax_amount_rounding']);
    const rSubstitution = f1Request({
      invoice_type: 'R1',
      rectification_type: 'S',
      rectified_base_amount: 0,
      rectified_tax_amount: 0,
      corrected_invoices: [{ invoice_number: 'A-1', invoice_date: '2026-10-01' }],
      breakdown: [line({ operation_type: 'S1', base_amount: -100, tax_rate: 21, tax_amount: 21 })],
      total_amount: -79,
      total_tax_amount: 21,
    });
    expect(errorAt(rSubstitution, 'breakdown[0].tax_amount')).toMatchObject({ code: 'tax_sign_mismatch', authority_code: 1143 });
  });

  it('skips the tax arithmetic on differences-type corrections and on R2/R3, as the authority does', () => {
    const mismatched = {
      breakdown: [line({ operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 50 })],
      ...totals(100, 50),
      corrected_invoices: [{ invoice_number: 'A-1', invoice_date: '2026-10-01' }],
    };
    expect(errorsOf(f1Request({ invoice_type: 'R1', ...mismatched }))).toEqual([]);
    expect(
      errorsOf(
        f1Request({ invoice_type: 'R3', rectification_type: 'S', rectified_base_amount: 1, rectified_tax_amount: 1, ...mismatched }),
      ),
    ).toEqual([]);
    expect(
      errorsOf(
        f1Request({ invoice_type: 'R4', rectification_type: 'S', rectified_base_amount: 1, rectified_tax_amount: 1, ...mismatched }),
      ),
    ).toEqual(['breakdown[0].tax_amount:tax_amount_mismatch']);
  });

  it('S2 (reverse charge): only on F1/F3/R1–R4 (1197), rate and tax both present and 0 (1198)', () => {
    expect(errorsOf(withLine(line({ operation_type: 'S2', base_amount: 100, tax_rate: 0, tax_amount: 0 }), totals(100)))).toEqual([]);
    expect(
      errorAt(
        withLine(line({ operation_type: 'S2', base_amount: 100, tax_rate: 0, tax_amount: 0 }), {
          invoice_type: 'F2',
          recipient: undefined,
          ...totals(100),
        }),
        'breakdown[0].operation_type',
      ),
    ).toMatchObject({ authority_code: 1197 });
    expect(errorsOf(withLine(line({ operation_type: 'S2', base_amount: 100, tax_rate: 21 }), totals(100)))).toEqual([
      'breakdown[0].tax_rate:reverse_charge_requires_zero',
      'breakdown[0].tax_amount:reverse_charge_requires_zero',
    ]);
  });

  it('N1/N2 with IVA carry no rate, tax or surcharge (1237); with other taxes tax must be 0 (1207)', () => {
    expect(
      errorAt(withLine(line({ operation_type: 'N2', base_amount: 100, tax_rate: 21 }), totals(100)), 'breakdown[0].tax_rate'),
    ).toMatchObject({ authority_code: 1237 });
    expect(
      errorAt(
        withLine({ tax_type: '03', regime_type: '01', operation_type: 'N1', base_amount: 100, tax_amount: 7 }, totals(100, 7)),
        'breakdown[0].tax_amount',
      ),
    ).toMatchObject({ code: 'tax_only_with_s1', authority_code: 1207 });
    expect(
      errorsOf(
        withLine({ tax_type: '03', regime_type: '01', operation_type: 'N1', base_amount: 100, tax_rate: 0, tax_amount: 0 }, totals(100)),
      ),
    ).toEqual([]);
  });

  it('exempt lines carry no rate, tax or surcharge (1238); E7/E8 are IGIC only (1182)', () => {
    expect(errorsOf(withLine(line({ operation_type: 'E1', base_amount: 100, tax_rate: 0, tax_amount: 0 }), totals(100)))).toEqual([
      'breakdown[0].tax_rate:not_allowed_on_exempt_line',
      'breakdown[0].tax_amount:not_allowed_on_exempt_line',
    ]);
    expect(errorAt(withLine(line({ operation_type: 'E7', base_amount: 100 }), totals(100)), 'breakdown[0].operation_type')).toMatchObject({
      code: 'exemption_igic_only',
      authority_code: 1182,
    });
    expect(errorsOf(withLine({ tax_type: '03', regime_type: '01', operation_type: 'E7', base_amount: 100 }, totals(100)))).toEqual([]);
  });
});

describe('regime-specific rules', () => {
  it.each([
    [line({ regime_type: '01', operation_type: 'E2', base_amount: 100 }), 'breakdown[0].operation_type', 1199],
    [
      line({ regime_type: '02', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 }),
      'breakdown[0].operation_type',
      1286,
    ],
    [line({ regime_type: '03', operation_type: 'S2', base_amount: 100, tax_rate: 0, tax_amount: 0 }), 'breakdown[0].operation_type', 1200],
    [
      line({ regime_type: '04', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 }),
      'breakdown[0].operation_type',
      1201,
    ],
    [
      line({ regime_type: '06', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 }),
      'breakdown[0].cost_base_amount',
      1202,
    ],
    [line({ regime_type: '06', operation_type: 'S1', base_amount: 100, cost_base_amount: 80 }), 'breakdown[0].tax_rate', 1209],
    [
      line({ regime_type: '01', operation_type: 'S1', base_amount: 100, cost_base_amount: 80, tax_rate: 21, tax_amount: 21 }),
      'breakdown[0].cost_base_amount',
      1257,
    ],
    [line({ regime_type: '07', operation_type: 'N1', base_amount: 100 }), 'breakdown[0].operation_type', 1203],
    [
      line({ regime_type: '08', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 }),
      'breakdown[0].operation_type',
      1252,
    ],
    [
      line({ regime_type: '10', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 }),
      'breakdown[0].operation_type',
      1205,
    ],
    [line({ regime_type: '11', operation_type: 'S1', base_amount: 100, tax_rate: 10, tax_amount: 10 }), 'breakdown[0].tax_rate', 1206],
    [
      { tax_type: '03', regime_type: '20', operation_type: 'S1', base_amount: 100, tax_rate: 7, tax_amount: 7 },
      'breakdown[0].operation_type',
      1293,
    ],
  ])('refuses %p (%s, %i)', (breakdownLine, field, authorityCode) => {
    expect(errorAt(withLine(breakdownLine), field)?.authority_code).toBe(authorityCode);
  });

  it('accepts the combinations each regime allows', () => {
    expect(errorsOf(withLine(line({ regime_type: '02', operation_type: 'E2', base_amount: 100 }), totals(100)))).toEqual([]);
    expect(
      errorsOf(withLine(line({ regime_type: '04', operation_type: 'S2', base_amount: 100, tax_rate: 0, tax_amount: 0 }), totals(100))),
    ).toEqual([]);
    expect(errorsOf(withLine(line({ regime_type: '08', operation_type: 'N2', base_amount: 100 }), totals(100)))).toEqual([]);
    expect(errorsOf(withLine(line({ regime_type: '10', operation_type: 'N1', base_amount: 100 }), totals(100)))).toEqual([]);
    expect(errorsOf(withLine(line({ regime_type: '11', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 })))).toEqual(
      [],
    );
  });

  it('regime 10 also needs an F1 with a Spanish-NIF recipient (1205), reported once for several lines', () => {
    const regime10 = line({ regime_type: '10', operation_type: 'N1', base_amount: 50 });
    const body = f1Request({
      invoice_type: 'F3',
      recipient: { name: 'X', country: 'FR', id_type: '03', id: 'P1' },
      breakdown: [regime10, regime10],
      ...totals(100),
    });
    expect(errorsOf(body)).toEqual(['invoice_type:regime_invoice_type_mismatch', 'recipient:regime_recipient_mismatch']);
  });

  it('regime 14 needs a later operation date (1147), F1/R1–R4 (1148) and a public-sector NIF (1149)', () => {
    const regime14 = [line({ regime_type: '14', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 })];
    expect(errorsOf(f1Request({ breakdown: regime14 }))).toEqual([
      'operation_date:operation_date_required',
      'recipient:regime_recipient_mismatch',
    ]);
    const valid = f1Request({
      breakdown: regime14,
      operation_date: '2027-03-01',
      recipient: { name: 'Agencia Tributaria', nif: 'Q2826000H' },
    });
    expect(errorsOf(valid)).toEqual([]);
    expect(errorAt({ ...valid, invoice_type: 'F3' }, 'invoice_type')).toMatchObject({ authority_code: 1148 });
  });
});

describe('regime 06 and the cost base (BaseImponibleACoste)', () => {
  const group = (extra: Record<string, unknown> = {}) =>
    line({ regime_type: '06', operation_type: 'S1', base_amount: 100, cost_base_amount: 80, tax_rate: 21, tax_amount: 16.8, ...extra });

  it('takes a regime 06 line whose tax is cost base × rate, without a totals check', () => {
    expect(errorsOf(withLine(group(), totals(100, 16.8)))).toEqual([]);
  });

  it('judges the tax against the cost base: sign (1140) and amount (1144)', () => {
    expect(errorAt(withLine(group({ tax_amount: -16.8 })), 'breakdown[0].tax_amount')).toMatchObject({ authority_code: 1140 });
    expect(errorAt(withLine(group({ tax_amount: 21 + 16.8 })), 'breakdown[0].tax_amount')).toMatchObject({ authority_code: 1144 });
  });

  it('refuses regime 06 on F2, F3 and R5 invoices (1202)', () => {
    expect(errorAt(withLine(group(), { invoice_type: 'F3' }), 'invoice_type')).toMatchObject({ authority_code: 1202 });
  });

  it('lets an IPSI line with a cost base leave rate and tax out (1208 asks them only without one)', () => {
    const ipsi = { tax_type: '02', regime_type: '01', operation_type: 'S1', base_amount: 100, cost_base_amount: 90 };
    expect(errorsOf(withLine(ipsi, totals(100)))).toEqual([]);
  });
});

describe('E5 intra-Community supplies', () => {
  it('refuse a recipient identified by Spanish NIF (1289)', () => {
    const e5 = line({ regime_type: '01', operation_type: 'E5', base_amount: 100 });
    expect(errorAt(withLine(e5, totals(100)), 'breakdown[0].operation_type')).toMatchObject({ authority_code: 1289 });
    const abroad = { recipient: { name: 'Client SARL', country: 'FR', id_type: '02', id: 'FR12345678901' }, ...totals(100) };
    expect(errorsOf(withLine(e5, abroad))).toEqual([]);
  });
});

describe('equivalence surcharge pairing', () => {
  const s1 = (extra: Record<string, unknown>) =>
    line({ regime_type: '18', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21, ...extra });

  it('accepts rate and amount together on S1', () => {
    expect(errorsOf(withLine(s1({ surcharge_rate: 5.2, surcharge_amount: 5.2 }), totals(100, 21, 5.2)))).toEqual([]);
  });

  it('wants both or neither (1284)', () => {
    expect(errorAt(withLine(s1({ surcharge_rate: 5.2 })), 'breakdown[0].surcharge_amount')).toMatchObject({ authority_code: 1284 });
    expect(errorAt(withLine(s1({ surcharge_amount: 5.2 }), totals(100, 21, 5.2)), 'breakdown[0].surcharge_rate')).toMatchObject({
      authority_code: 1284,
    });
  });

  it('refuses it outside S1 (1281, 1238)', () => {
    const s2 = line({ operation_type: 'S2', base_amount: 100, tax_rate: 0, tax_amount: 0, surcharge_rate: 0, surcharge_amount: 0 });
    expect(errorsOf(withLine(s2, totals(100)))).toEqual([
      'breakdown[0].surcharge_rate:surcharge_only_with_s1',
      'breakdown[0].surcharge_amount:surcharge_only_with_s1',
    ]);
    expect(
      errorAt(
        withLine(line({ operation_type: 'E1', base_amount: 100, surcharge_rate: 5.2, surcharge_amount: 5.2 }), totals(100, 0, 5.2)),
        'breakdown[0].surcharge_rate',
      ),
    ).toMatchObject({ authority_code: 1238 });
  });

  it('warns when the surcharge amount is not base × surcharge rate', () => {
    expect(warningsOf(withLine(s1({ surcharge_rate: 5.2, surcharge_amount: 5.3 }), totals(100, 21, 5.3)))).toEqual([
      'breakdown[0].surcharge_amount:surcharge_amount_rounding',
    ]);
  });
});
