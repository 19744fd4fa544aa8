import {
  COUNTRY_CODES,
  EU_MEMBER_STATES,
  isCorrectiveInvoiceType,
  isCountryCode,
  isEuMemberState,
  isExemptionCode,
  isIdType,
  isInvoiceType,
  isOperationQualification,
  isRegimeKeyFor,
  isTaxType,
  NORMAL_INVOICE_TYPES,
  regimeKeyCodes,
  regimeKeysFor,
  requiresRecipient,
} from '.';

describe('code lists', () => {
  it('invoice types: F1–F3 and R1–R5, with the recipient rule per type', () => {
    expect(['F1', 'F2', 'F3', 'R1', 'R2', 'R3', 'R4', 'R5'].every(isInvoiceType)).toBe(true);
    expect(isInvoiceType('F4')).toBe(false);
    expect(isInvoiceType('toString')).toBe(false);
    expect(isCorrectiveInvoiceType('R5')).toBe(true);
    expect(isCorrectiveInvoiceType('F3')).toBe(false);
    expect(NORMAL_INVOICE_TYPES).toEqual(['F1', 'F2', 'F3']);
    expect(['F1', 'F3', 'R1', 'R2', 'R3', 'R4'].filter((t) => isInvoiceType(t) && requiresRecipient(t))).toHaveLength(6);
    expect(requiresRecipient('F2') || requiresRecipient('R5')).toBe(false);
  });

  it('tax types 01, 02, 03, 05 (no 04)', () => {
    expect(['01', '02', '03', '05'].every(isTaxType)).toBe(true);
    expect(isTaxType('04')).toBe(false);
  });

  it('regime keys depend on the tax', () => {
    expect(isRegimeKeyFor('01', '17')).toBe(true);
    expect(isRegimeKeyFor('01', '21')).toBe(false);
    expect(isRegimeKeyFor('03', '21')).toBe(true);
    expect(isRegimeKeyFor('02', '18')).toBe(true);
    expect(isRegimeKeyFor('02', '02')).toBe(false);
    expect(Object.keys(regimeKeysFor('05'))).toEqual([]);
    expect(regimeKeyCodes('01')).toEqual([
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '08',
      '09',
      '10',
      '11',
      '14',
      '15',
      '17',
      '18',
      '19',
      '20',
    ]);
  });

  it('operation qualifications and exemptions', () => {
    expect(['S1', 'S2', 'N1', 'N2'].every(isOperationQualification)).toBe(true);
    expect(['E1', 'E2', 'E3', 'E4', 'E5', 'E6', 'E7', 'E8'].every(isExemptionCode)).toBe(true);
    expect(isExemptionCode('E9') || isOperationQualification('S3')).toBe(false);
  });

  it('ID types 02–07 (L7)', () => {
    expect(['02', '03', '04', '05', '06', '07'].every(isIdType)).toBe(true);
    expect(isIdType('01') || isIdType('08')).toBe(false);
  });

  it('countries are the XSD CountryType2 list; EU has the 27 member states', () => {
    expect(COUNTRY_CODES).toHaveLength(245);
    expect(new Set(COUNTRY_CODES).size).toBe(245);
    expect(['ES', 'FR', 'GR', 'US', 'GB', 'XB', 'QU'].every(isCountryCode)).toBe(true);
    expect(isCountryCode('EL') || isCountryCode('XI') || isCountryCode('es')).toBe(false);
    expect(EU_MEMBER_STATES).toHaveLength(27);
    expect(EU_MEMBER_STATES.every(isCountryCode)).toBe(true);
    expect(isEuMemberState('GR') && !isEuMemberState('GB') && !isEuMemberState('CH')).toBe(true);
  });
});
