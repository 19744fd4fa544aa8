import { f1Request } from '../testing';
import { errorAt, errorsOf, warningsOf } from './errors-of';

const corrective = (type: string, extra: Record<string, unknown> = {}) =>
  f1Request({ invoice_type: type, corrected_invoices: [{ invoice_number: 'A-1', invoice_date: '2026-10-01' }], ...extra });
const foreign = (country: string, idType: string, id: string) => ({ name: 'Foreign Ltd', country, id_type: idType, id });

describe('recipient', () => {
  it.each(['F1', 'F3', 'R1', 'R2', 'R3', 'R4'])('is required on %s (1189)', (type) => {
    const body = type.startsWith('R')
      ? corrective(type, { recipient: undefined })
      : f1Request({ invoice_type: type, recipient: undefined });
    expect(errorAt(body, 'recipient')).toMatchObject({ code: 'required', authority_code: 1189 });
  });

  it.each(['F2', 'R5'])('is refused on %s (1190)', (type) => {
    const body = type === 'R5' ? corrective(type) : f1Request({ invoice_type: type });
    expect(errorAt(body, 'recipient')).toMatchObject({ code: 'recipient_not_allowed', authority_code: 1190 });
  });

  it('checks the NIF check character (1123)', () => {
    expect(errorAt(f1Request({ recipient: { name: 'X', nif: 'B85905496' } }), 'recipient.nif')).toMatchObject({
      code: 'invalid_nif',
      authority_code: 1123,
    });
  });

  it('wants a name (1283) and exactly one way of identification', () => {
    expect(errorAt(f1Request({ recipient: { nif: 'B85905495' } }), 'recipient.name')).toMatchObject({
      code: 'required',
      authority_code: 1283,
    });
    expect(errorsOf(f1Request({ recipient: { name: 'X', nif: 'B85905495', country: 'FR' } }))).toEqual(['recipient:ambiguous_recipient']);
    expect(errorsOf(f1Request({ recipient: { name: 'X' } }))).toEqual(['recipient:required']);
    expect(errorsOf(f1Request({ recipient: { name: 'X', country: 'FR', id_type: '03' } }))).toEqual(['recipient.id:required']);
  });

  it.each([
    [foreign('ZZ', '03', 'P123'), 'recipient.country', 'invalid_country', 1101],
    [foreign('FR', '01', 'P123'), 'recipient.id_type', 'invalid_code', 1102],
    [foreign('ES', '02', 'ESB85905495'), 'recipient.id_type', 'invalid_id_type_for_spain', 1234],
    [foreign('ES', '04', '123'), 'recipient.id_type', 'invalid_id_type_for_spain', 1234],
    [foreign('FR', '07', '12345678Z'), 'recipient.country', 'invalid_country_for_id_type', 1126],
    [foreign('ES', '07', 'B85905495'), 'recipient.id', 'invalid_uncensused_nif', 1131],
    [foreign('ES', '07', '1234'), 'recipient.id', 'invalid_nif', 1290],
    [foreign('FR', '02', 'DE123456789'), 'recipient.id', 'invalid_eu_vat_number', 1122],
    [foreign('DE', '02', 'DE1234'), 'recipient.id', 'invalid_eu_vat_number', 1103],
    [foreign('FR', '03', 'x'.repeat(21)), 'recipient.id', 'invalid_length', 1222],
  ])('refuses the foreign identification %p', (recipient, field, code, authorityCode) => {
    const issue = errorAt(f1Request({ recipient }), field);
    expect(issue?.code).toBe(code);
    expect(issue?.authority_code).toBe(authorityCode);
  });

  it('accepts a passport, a NIF missing from the census (07) and an EU VAT number, with or without its country', () => {
    expect(errorsOf(f1Request({ recipient: foreign('US', '03', 'X1234567') }))).toEqual([]);
    expect(errorsOf(f1Request({ recipient: foreign('ES', '07', '12345678z') }))).toEqual([]);
    expect(warningsOf(f1Request({ recipient: foreign('GR', '02', 'EL123456789') }))).toEqual(['recipient.id:eu_vat_number_not_verified']);
    // CodigoPais is mandatory only when IDType is not 02 (1111): the VAT number's prefix names the country.
    expect(errorsOf(f1Request({ recipient: { name: 'Client SARL', id_type: '02', id: 'FR12345678901' } }))).toEqual([]);
    expect(errorAt(f1Request({ recipient: { name: 'Client', id_type: '03', id: 'P1' } }), 'recipient.country')).toMatchObject({
      code: 'required',
      authority_code: 1111,
    });
    expect(errorAt(f1Request({ recipient: { name: 'Client', id_type: '02', id: 'ZZ123' } }), 'recipient.id')).toMatchObject({
      authority_code: 1103,
    });
  });

  it('judges United Kingdom VAT numbers by the operation date: XI from 2021 (1254), GB before February 2021 (1255)', () => {
    const gb = (id: string, date: Record<string, unknown>) =>
      f1Request({
        recipient: foreign('GB', '02', id),
        breakdown: [{ operation_type: 'N2', regime_type: '01', base_amount: 100 }],
        ...date,
      });
    const totals = { total_amount: 100, total_tax_amount: 0 };
    expect(errorsOf(gb('XI123456789', totals))).toEqual([]);
    expect(errorAt(gb('GB123456789', totals), 'recipient.id')).toMatchObject({ authority_code: 1255 });
    expect(errorsOf(gb('GB123456789', { ...totals, operation_date: '2021-01-15' }))).toEqual([]);
    expect(errorAt(gb('XI123456789', { ...totals, operation_date: '2020-12-31' }), 'recipient.id')).toMatchObject({
      authority_code: 1254,
    });
  });

  it('takes several recipients in recipients, each judged on its own, but not together with recipient', () => {
    const two = [
      { name: 'Uno SL', nif: 'B85905495' },
      { name: 'Dos SA', nif: 'A86018322' },
    ];
    expect(errorsOf(f1Request({ recipient: undefined, recipients: two }))).toEqual([]);
    expect(errorsOf(f1Request({ recipients: two }))).toEqual(['recipients:ambiguous_recipients']);
    expect(errorsOf(f1Request({ recipient: undefined, recipients: [two[0], { name: 'Mal', nif: 'B85905496' }] }))).toEqual([
      'recipients[1].nif:invalid_nif',
    ]);
    expect(errorAt(f1Request({ recipient: undefined, recipients: Array(1001).fill(two[0]) }), 'recipients')).toMatchObject({
      authority_code: 4113,
    });
  });

  it('limits R3 to NIF or id_type 07 (1191) and R2 to NIF, 02 or 07 (1192)', () => {
    expect(errorAt(corrective('R3', { recipient: foreign('FR', '03', 'P1') }), 'recipient.id_type')).toMatchObject({
      authority_code: 1191,
    });
    expect(errorsOf(corrective('R3', { recipient: foreign('ES', '07', '12345678Z') }))).toEqual([]);
    expect(errorAt(corrective('R2', { recipient: foreign('FR', '03', 'P1') }), 'recipient.id_type')).toMatchObject({
      authority_code: 1192,
    });
    expect(errorsOf(corrective('R2', { recipient: foreign('FR', '02', 'FR12345678901') }))).toEqual([]);
  });
});

describe('corrective invoices', () => {
  it('requires corrected_invoices on R1 to R5 and refuses them otherwise (1117)', () => {
    expect(errorsOf(f1Request({ invoice_type: 'R4' }))).toEqual(['corrected_invoices:required']);
    expect(errorsOf(f1Request({ invoice_type: 'R4', corrected_invoices: [] }))).toEqual(['corrected_invoices:required']);
    expect(
      errorAt(f1Request({ corrected_invoices: [{ invoice_number: 'A-1', invoice_date: '2026-10-01' }] }), 'corrected_invoices'),
    ).toMatchObject({
      code: 'not_allowed',
      authority_code: 1117,
    });
  });

  it('checks each corrected invoice reference', () => {
    const body = corrective('R4', {
      corrected_invoices: [
        { invoice_number: 'A-1', invoice_date: '2026-11-21' },
        { invoice_number: 'A<2', invoice_date: '2026-13-01' },
        { invoice_number: 'A-2026/0001', invoice_date: '2026-11-20' },
        'A-3',
      ],
    });
    expect(errorsOf(body)).toEqual([
      'corrected_invoices[1].invoice_number:reserved_characters',
      'corrected_invoices[1].invoice_date:invalid_date',
      'corrected_invoices[3]:invalid_type',
    ]);
  });

  it('only warns about a corrected invoice dated after the correction, or the correction itself: the authority takes both', () => {
    const dated = corrective('R4', {
      corrected_invoices: [
        { invoice_number: 'A-1', invoice_date: '2026-11-21' },
        { invoice_number: 'A-2026/0001', invoice_date: '2026-11-20' },
      ],
    });
    expect(errorsOf(dated)).toEqual([]);
    expect(warningsOf(dated)).toEqual([
      'corrected_invoices[0].invoice_date:referenced_invoice_after_invoice',
      'corrected_invoices[1]:references_itself',
    ]);
  });

  it('takes substituted_invoices on an F3 only (1116), and the recargo of a substitution only with S (1119)', () => {
    const substituted = [{ invoice_number: 'T-1', invoice_date: '2026-11-01' }];
    expect(errorsOf(f1Request({ invoice_type: 'F3', substituted_invoices: substituted }))).toEqual([]);
    expect(errorAt(f1Request({ substituted_invoices: substituted }), 'substituted_invoices')).toMatchObject({ authority_code: 1116 });
    const substitution = { rectification_type: 'S', rectified_base_amount: 100, rectified_tax_amount: 21, rectified_surcharge_amount: 5.2 };
    expect(errorsOf(corrective('R1', substitution))).toEqual([]);
    expect(errorAt(corrective('R1', { rectified_surcharge_amount: 5.2 }), 'rectified_surcharge_amount')).toMatchObject({
      authority_code: 1119,
    });
  });

  it('refuses rectification fields on non-corrective invoices (1115, 1119)', () => {
    expect(errorAt(f1Request({ rectification_type: 'I' }), 'rectification_type')).toMatchObject({ authority_code: 1115 });
    expect(errorAt(f1Request({ rectified_base_amount: 1 }), 'rectified_base_amount')).toMatchObject({ authority_code: 1119 });
  });

  it('requires both rectified amounts with substitution (1118) and refuses them with differences (1119)', () => {
    expect(errorsOf(corrective('R1', { rectification_type: 'S' }))).toEqual([
      'rectified_base_amount:required',
      'rectified_tax_amount:required',
    ]);
    expect(errorsOf(corrective('R1', { rectification_type: 'S', rectified_base_amount: 100, rectified_tax_amount: 21 }))).toEqual([]);
    expect(errorsOf(corrective('R1', { rectified_tax_amount: 21 }))).toEqual(['rectified_tax_amount:not_allowed']);
    expect(errorAt(corrective('R1', { rectification_type: 'X' }), 'rectification_type')).toMatchObject({
      code: 'invalid_code',
      authority_code: 1107,
    });
  });

  it('allows negative amounts on any invoice: the only sign rule is base and tax alike on each line (1143)', () => {
    const negative = {
      breakdown: [{ regime_type: '01', operation_type: 'S1', base_amount: -100, tax_rate: 21, tax_amount: -21 }],
      total_amount: -121,
      total_tax_amount: -21,
    };
    expect(errorsOf(f1Request(negative))).toEqual([]);
    expect(errorsOf(corrective('R1', negative))).toEqual([]);
    expect(errorsOf(corrective('R5', { ...negative, recipient: undefined }))).toEqual([]);
    const discount = {
      breakdown: [
        { regime_type: '01', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 },
        { regime_type: '01', operation_type: 'S1', base_amount: -10, tax_rate: 21, tax_amount: -2.1 },
      ],
      total_amount: 108.9,
      total_tax_amount: 18.9,
    };
    expect(errorsOf(f1Request(discount))).toEqual([]);
    expect(
      errorAt(
        f1Request({ ...discount, breakdown: [discount.breakdown[0], { ...discount.breakdown[1], tax_amount: 2.1 }] }),
        'breakdown[1].tax_amount',
      ),
    ).toMatchObject({ authority_code: 1143 });
  });
});
