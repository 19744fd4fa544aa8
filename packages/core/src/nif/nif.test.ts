import { normaliseCensusName, validateEuVatNumber, validateSpanishNif } from '.';

describe('validateSpanishNif', () => {
  it.each([
    ['89890001K', 'dni'],
    ['89890002E', 'dni'],
    ['00000000T', 'dni'],
    ['B85905495', 'entity'],
    ['A86018322', 'entity'],
    ['J99216582', 'entity'],
    ['B63272603', 'entity'],
    ['X1234567L', 'nie'],
    ['Y1234567X', 'nie'],
    ['Z1234567R', 'nie'],
    ['K1234567L', 'klm'],
    ['M1234567L', 'klm'],
  ])('accepts %s as %s', (nif, kind) => {
    expect(validateSpanishNif(nif)).toEqual({ valid: true, normalized: nif, kind });
  });

  it('accepts an entity control written as a letter or as the digit it stands for', () => {
    // B85905495: control value 5 -> digit "5" or letter "E" (JABCDEFGHI).
    expect(validateSpanishNif('B8590549E')).toEqual({ valid: true, normalized: 'B8590549E', kind: 'entity' });
    // P-type entities usually carry the letter.
    expect(validateSpanishNif('P2807900B').valid).toBe(true);
  });

  it('normalises case, spaces, hyphens and a leading ES', () => {
    expect(validateSpanishNif(' 89890001-k ')).toEqual({ valid: true, normalized: '89890001K', kind: 'dni' });
    expect(validateSpanishNif('ES B85905495')).toEqual({ valid: true, normalized: 'B85905495', kind: 'entity' });
    expect(validateSpanishNif('es89890001k').normalized).toBe('89890001K');
  });

  it.each([
    '89890001A', // wrong DNI letter
    'B85905496', // wrong entity digit
    'B8590549F', // wrong entity letter
    'A86018321',
    'X1234567A', // wrong NIE letter
    'K1234567A', // wrong KLM letter
    'I1234567A', // I is not an entity letter
    '8989000K', // too short
    '898900011K', // too long
    'ESX',
    '',
    'B8590549K', // K is not a control letter
  ])('refuses %p', (nif) => {
    const check = validateSpanishNif(nif);
    expect(check.valid).toBe(false);
    expect(check.kind).toBeUndefined();
  });
});

describe('validateEuVatNumber', () => {
  it.each([
    ['FR', 'FR12345678901', 'FR12345678901'],
    ['FR', 'FRXX999999999', 'FRXX999999999'],
    ['DE', 'de 123 456 789', 'DE123456789'],
    ['GR', 'EL123456789', 'EL123456789'],
    ['PT', 'PT-501.234.567', 'PT501234567'],
    ['NL', 'NL123456789B01', 'NL123456789B01'],
    ['AT', 'ATU12345678', 'ATU12345678'],
    ['RO', 'RO18547290', 'RO18547290'],
    ['LT', 'LT123456789012', 'LT123456789012'],
    ['GB', 'XI123456789', 'XI123456789'],
    // Before February 2021 a GB number was a NIF-IVA; which prefix an operation may carry is judged with its date.
    ['GB', 'GB123456789', 'GB123456789'],
    [undefined, 'FR12345678901', 'FR12345678901'],
    [undefined, 'el123456789', 'EL123456789'],
    ['it', 'IT12345678901', 'IT12345678901'],
  ])('accepts %s %s', (country, id, normalized) => {
    expect(validateEuVatNumber(country, id)).toEqual({ valid: true, normalized });
  });

  it.each([
    ['DE', '12345678', 'DE'], // no prefix and too short
    ['DE', '123456789', 'prefix DE'], // the prefix is required
    ['FR', 'DE123456789', 'prefix FR'], // another country's number
    ['GR', 'GR123456789', 'prefix EL'],
    [undefined, 'ZZ12345', 'EU VAT prefix'],
    ['DE', 'DE12345678', '9 digits'],
    ['RO', 'RO0123', 'without leading zeros'],
    ['LT', 'LT1234567890', '9 or 12 digits'],
    ['ES', 'ESB85905495', 'NIF'],
    ['US', 'US123456789', 'does not issue'],
  ])('refuses %s %s, saying why', (country, id, reasonPart) => {
    const check = validateEuVatNumber(country, id);
    expect(check.valid).toBe(false);
    expect(check.reason).toContain(reasonPart);
  });
});

describe('normaliseCensusName', () => {
  it('meets two spellings of one name: case, accents, padding, double spaces, punctuation; keeps Ñ and Ç', () => {
    expect(normaliseCensusName('  Muñoz  Pérez-García, José ')).toBe('MUÑOZ PEREZ GARCIA JOSE');
    expect(normaliseCensusName('Empresa de Pruebas, S.L.')).toBe('EMPRESA DE PRUEBAS SL');
    expect(normaliseCensusName('Françesc Çà')).toBe('FRANÇESC ÇA');
  });
});
