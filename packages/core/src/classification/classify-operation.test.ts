import { EU_MEMBER_STATES } from '../code-lists';
import { f1Request } from '../testing';
import { validateInvoiceRequest } from '../validation';
import { classifyOperation } from './classify-operation';
import { EU_STANDARD_VAT_RATES } from './eu-standard-vat-rates';

function dataOf(body: unknown) {
  const result = classifyOperation(body);
  if (!result.valid) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

function errorsOf(body: unknown): string[] {
  const result = classifyOperation(body);
  return result.valid ? [] : result.errors.map((e) => `${e.field}:${e.code}`);
}

const codes = (d: ReturnType<typeof dataOf>) => [d.operation_class, d.operation_type, d.regime_type, d.tax_type, d.tax_rate];

describe('classifyOperation: the six cases', () => {
  it('domestic by default: S1, regime 01, IVA 21%', () => {
    expect(codes(dataOf({}))).toEqual(['domestic', 'S1', '01', '01', 21]);
    expect(codes(dataOf({ issuer_territory: 'peninsula', recipient_country: 'ES', recipient_vat: 'ESB85905495' }))).toEqual([
      'domestic',
      'S1',
      '01',
      '01',
      21,
    ]);
  });

  it('EU business: E1, regime 02, rate 0, advising a VIES check of the normalised number', () => {
    const data = dataOf({ recipient_country: 'FR', recipient_vat: 'fr 12 345678901' });
    expect(codes(data)).toEqual(['intra_eu_b2b', 'E1', '02', '01', 0]);
    expect(data.notes).toContain('VIES');
    expect(data.notes).toContain('FR12345678901');
  });

  it("EU consumer: S1, regime 17, the destination's standard rate, mentioning OSS", () => {
    expect(codes(dataOf({ recipient_country: 'DE' }))).toEqual(['intra_eu_b2c_oss', 'S1', '17', '01', 19]);
    expect(dataOf({ recipient_country: 'HU' }).tax_rate).toBe(27);
    expect(dataOf({ recipient_country: 'FI' }).tax_rate).toBe(25.5);
    expect(dataOf({ recipient_country: 'fr' }).notes).toMatch(/One-Stop Shop/);
  });

  it('has a standard rate for every member state', () => {
    for (const country of EU_MEMBER_STATES) expect(EU_STANDARD_VAT_RATES[country]).toBeGreaterThan(0);
  });

  it('export outside the EU: E2, regime 02, rate 0, with or without a foreign tax number', () => {
    expect(codes(dataOf({ recipient_country: 'US' }))).toEqual(['export', 'E2', '02', '01', 0]);
    expect(codes(dataOf({ recipient_country: 'CH', recipient_vat: 'CHE-123.456.789' }))).toEqual(['export', 'E2', '02', '01', 0]);
    expect(codes(dataOf({ recipient_country: 'GB', recipient_vat: 'GB123456789' }))).toEqual(['export', 'E2', '02', '01', 0]);
  });

  it('issuer in the Canary Islands: S1, regime 01, IGIC (03) at 7%', () => {
    expect(codes(dataOf({ issuer_territory: 'canarias' }))).toEqual(['canary_islands_igic', 'S1', '01', '03', 7]);
    expect(dataOf({ issuer_territory: 'canarias', recipient_country: 'DE' }).notes).toContain('export');
  });

  it('issuer in Ceuta or Melilla: S1, regime 01, IPSI (02), explaining the rate returned', () => {
    const ceuta = dataOf({ issuer_territory: 'ceuta' });
    expect(codes(ceuta)).toEqual(['ceuta_melilla_ipsi', 'S1', '01', '02', 3]);
    expect(ceuta.notes).toContain('3%');
    expect(codes(dataOf({ issuer_territory: 'melilla', recipient_country: 'ES' }))).toEqual(['ceuta_melilla_ipsi', 'S1', '01', '02', 4]);
  });
});

describe('classifyOperation: invalid requests', () => {
  it.each([
    [{ issuer_territory: 'baleares' }, 'issuer_territory:invalid_code'],
    [{ recipient_country: 'XX' }, 'recipient_country:invalid_country'],
    [{ recipient_country: 7 }, 'recipient_country:invalid_country'],
    [{ recipient_country: 'FR', recipient_vat: 'DE123456789' }, 'recipient_vat:vat_country_mismatch'],
    [{ recipient_country: 'GR', recipient_vat: 'GR123456789' }, 'recipient_vat:vat_country_mismatch'],
    [{ recipient_country: 'ES', recipient_vat: 'FR12345678901' }, 'recipient_vat:vat_country_mismatch'],
    [{ recipient_country: 'US', recipient_vat: 'DE123456789' }, 'recipient_vat:vat_country_mismatch'],
    [{ recipient_country: 'DE', recipient_vat: 'DE12' }, 'recipient_vat:invalid_vat_number'],
    [{ recipient_country: 'ES', recipient_vat: 'ESB85905496' }, 'recipient_vat:invalid_vat_number'],
    [{ recipient_vat: 12 }, 'recipient_vat:invalid_type'],
    [{ recipient_country: 'FR', vat: 'x' }, 'vat:unknown_field'],
  ])('refuses %p', (body, expected) => {
    expect(errorsOf(body)).toEqual([expected]);
  });

  it.each([[null], [[]], ['peninsula']])('refuses a body that is not an object: %p', (body) => {
    expect(errorsOf(body)).toEqual([':invalid_body']);
  });

  it('reports every problem at once', () => {
    expect(errorsOf({ issuer_territory: 'mars', recipient_country: 'ZZ', extra: 1 })).toEqual([
      'extra:unknown_field',
      'issuer_territory:invalid_code',
      'recipient_country:invalid_country',
    ]);
  });
});

/** Every case classify answers, with an invoice around its line that a client would register for that sale. */
const CLASSIFY_CASES: { name: string; request: Record<string, unknown>; invoice: Record<string, unknown> }[] = [
  { name: 'domestic', request: { recipient_country: 'ES' }, invoice: {} },
  {
    name: 'EU business',
    request: { recipient_country: 'FR', recipient_vat: 'FR12345678901' },
    invoice: { recipient: { name: 'Client SARL', country: 'FR', id_type: '02', id: 'FR12345678901' } },
  },
  { name: 'EU consumer (OSS)', request: { recipient_country: 'FR' }, invoice: { invoice_type: 'F2', recipient: undefined } },
  {
    name: 'export',
    request: { recipient_country: 'US' },
    invoice: { recipient: { name: 'Client Inc', country: 'US', id_type: '04', id: 'X1234567' } },
  },
  { name: 'Canary Islands', request: { issuer_territory: 'canarias' }, invoice: {} },
  { name: 'Ceuta', request: { issuer_territory: 'ceuta' }, invoice: {} },
  { name: 'Melilla', request: { issuer_territory: 'melilla' }, invoice: {} },
];

describe('classifyOperation: the breakdown line to register with', () => {
  it.each(CLASSIFY_CASES)('$name: a line the invoice rules accept as it is, once base_amount is given', ({ request, invoice }) => {
    const { breakdown_line: line } = dataOf({ ...request, base_amount: '250.00' });
    expect(line.base_amount).toBe('250.00');
    const tax = Number(line.tax_amount ?? 0);
    const body = f1Request({ breakdown: [line], total_amount: 250 + tax, total_tax_amount: tax, ...invoice });
    const result = validateInvoiceRequest(body, { today: '2026-11-22' });
    expect(result.valid ? [] : result.errors).toEqual([]);
    // Nothing the authority would flag either: only advice (the EU business's VIES check).
    expect(result.warnings.filter((w) => w.code !== 'eu_vat_number_not_verified')).toEqual([]);
  });

  it('computes the tax of a taxed line from the base, and leaves the amounts to the client without one', () => {
    expect(dataOf({ base_amount: 99.99 }).breakdown_line).toEqual({
      tax_type: '01',
      regime_type: '01',
      operation_type: 'S1',
      base_amount: '99.99',
      tax_rate: '21.00',
      tax_amount: '21.00',
    });
    expect(dataOf({}).breakdown_line).toMatchObject({ base_amount: null, tax_amount: null });
    expect(dataOf({ recipient_country: 'US' }).breakdown_line).toEqual({
      tax_type: '01',
      regime_type: '02',
      operation_type: 'E2',
      base_amount: null,
    });
    expect(errorsOf({ base_amount: '1,5' })).toEqual(['base_amount:invalid_amount']);
  });

  it("says in the notes where the contract's codes and the authority's rules part", () => {
    const oss = dataOf({ recipient_country: 'FR' });
    expect([oss.operation_type, oss.tax_rate]).toEqual(['S1', 20]);
    expect(oss.breakdown_line).toMatchObject({ operation_type: 'N2', regime_type: '17' });
    expect(oss.notes).toMatch(/contract states operation_type S1.*1124.*N2, regime 17/);
    expect(dataOf({ recipient_country: 'US' }).notes).toMatch(/contract states tax_rate 0.*1238/);
    expect(dataOf({ recipient_country: 'DE', recipient_vat: 'DE123456789' }).notes).toMatch(/contract states tax_rate 0/);
    expect(dataOf({}).notes).not.toMatch(/contract states/);
  });
});
