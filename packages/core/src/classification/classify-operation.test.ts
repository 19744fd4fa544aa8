import { EU_MEMBER_STATES } from '../code-lists';
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
