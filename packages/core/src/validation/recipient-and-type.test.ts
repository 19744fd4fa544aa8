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

  it('wants a name and exactly one way of identification', () => {
    expect(errorsOf(f1Request({ recipient: { nif: 'B85905495' } }))).toEqual(['recipient.name:required']);
    expect(errorsOf(f1Request({ recipient: { name: 'X', nif: 'B85905495', country: 'FR' } }))).toEqual(['recipient:ambiguous_recipient']);
    expect(errorsOf(f1Request({ recipient: { name: 'X' } }))).toEqual(['recipient:required']);
    expect(errorsOf(f1Request({ recipient: { name: 'X', country: 'FR', id_type: '03' } }))).toEqual(['recipient.id:required']);
  });

  it.each([
    [foreign('ZZ', '03', 'P123'), 'recipient.country', 'invalid_country', 1101],
    [foreign('FR', '01', 'P123'), 'recipient.id_type', 'invalid_code', 1102],
    [foreign('ES', '02', 'ESB85905495'), 'recipient.id_type', 'invalid_id_type_for_spain', 1126],
    [foreign('ES', '04', '123'), 'recipient.id_type', 'invalid_id_type_for_spain', 1126],
    [foreign('FR', '07', '12345678Z'), 'recipient.country', 'invalid_country_for_id_type', 1126],
    [foreign('ES', '07', 'B85905495'), 'recipient.id', 'invalid_uncensused_nif', 1131],
    [foreign('FR', '02', 'DE123456789'), 'recipient.id', 'invalid_eu_vat_number', 1122],
    [foreign('DE', '02', 'DE1234'), 'recipient.id', 'invalid_eu_vat_number', undefined],
    [foreign('FR', '03', 'x'.repeat(21)), 'recipient.id', 'invalid_length', undefined],
  ])('refuses the foreign identification %p', (recipient, field, code, authorityCode) => {
    const issue = errorAt(f1Request({ recipient }), field);
    expect(issue?.code).toBe(code);
    expect(issue?.authority_code).toBe(authorityCode);
  });

  it('accepts a passport, a NIF missing from the census (07) and an EU VAT number', () => {
    expect(errorsOf(f1Request({ recipient: foreign('US', '03', 'X1234567') }))).toEqual([]);
    expect(errorsOf(f1Request({ recipient: foreign('ES', '07', '12345678z') }))).toEqual([]);
    expect(warningsOf(f1Request({ recipient: foreign('GR', '02', 'EL123456789') }))).toEqual(['recipient.id:eu_vat_number_not_verified']);
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
      'corrected_invoices[1].invoice_number:invalid_characters',
      'corrected_invoices[1].invoice_date:invalid_date',
      'corrected_invoices[3]:invalid_type',
    ]);
    const dated = corrective('R4', {
      corrected_invoices: [
        { invoice_number: 'A-1', invoice_date: '2026-11-21' },
        { invoice_number: 'A-2026/0001', invoice_date: '2026-11-20' },
      ],
    });
    expect(errorsOf(dated)).toEqual([
      'corrected_invoices[0].invoice_date:corrected_invoice_after_invoice',
      'corrected_invoices[1]:corrects_itself',
    ]);
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

  it('allows negative amounts only on corrective invoices', () => {
    const negative = {
      breakdown: [{ regime_type: '01', operation_type: 'S1', base_amount: -100, tax_rate: 21, tax_amount: -21 }],
      total_amount: -121,
      total_tax_amount: -21,
    };
    expect(errorsOf(f1Request(negative))).toEqual([
      'total_amount:negative_amount',
      'total_tax_amount:negative_amount',
      'breakdown[0].base_amount:negative_amount',
      'breakdown[0].tax_amount:negative_amount',
    ]);
    expect(errorsOf(corrective('R1', negative))).toEqual([]);
    expect(errorsOf(corrective('R5', { ...negative, recipient: undefined }))).toEqual([]);
  });
});
