export interface EuVatCheck {
  valid: boolean;
  /** Uppercase with the VAT prefix (EL for Greece, XI for Northern Ireland), e.g. "FR12345678901". */
  normalized: string;
  /** What is wrong: the country has no EU VAT numbers, the prefix is not the country's, or the rest has the wrong shape. */
  problem?: 'country' | 'prefix' | 'shape';
  /** Why it is invalid, in English. */
  reason?: string;
}

interface VatFormat {
  prefix: string;
  body: RegExp;
  shape: string;
  /** Another prefix the country's numbers may carry. */
  alsoPrefix?: string;
}

// Body shapes after the prefix, from the NIF-IVA structure table of AEAT "Validaciones y errores" v1.2.0 (Nota 1).
const FORMATS: Record<string, VatFormat> = {
  AT: { prefix: 'AT', body: /^[0-9A-Z]{9}$/, shape: '9 letters or digits' },
  BE: { prefix: 'BE', body: /^\d{10}$/, shape: '10 digits' },
  BG: { prefix: 'BG', body: /^\d{9,10}$/, shape: '9 or 10 digits' },
  CY: { prefix: 'CY', body: /^[0-9A-Z]{9}$/, shape: '9 letters or digits' },
  CZ: { prefix: 'CZ', body: /^\d{8,10}$/, shape: '8 to 10 digits' },
  DE: { prefix: 'DE', body: /^\d{9}$/, shape: '9 digits' },
  DK: { prefix: 'DK', body: /^\d{8}$/, shape: '8 digits' },
  EE: { prefix: 'EE', body: /^\d{9}$/, shape: '9 digits' },
  FI: { prefix: 'FI', body: /^\d{8}$/, shape: '8 digits' },
  FR: { prefix: 'FR', body: /^[0-9A-Z]{11}$/, shape: '11 letters or digits' },
  GR: { prefix: 'EL', body: /^\d{9}$/, shape: '9 digits' },
  HR: { prefix: 'HR', body: /^\d{11}$/, shape: '11 digits' },
  HU: { prefix: 'HU', body: /^\d{8}$/, shape: '8 digits' },
  IE: { prefix: 'IE', body: /^[0-9A-Z]{8,9}$/, shape: '8 or 9 letters or digits' },
  IT: { prefix: 'IT', body: /^\d{11}$/, shape: '11 digits' },
  LT: { prefix: 'LT', body: /^(\d{9}|\d{12})$/, shape: '9 or 12 digits' },
  LU: { prefix: 'LU', body: /^\d{8}$/, shape: '8 digits' },
  LV: { prefix: 'LV', body: /^\d{11}$/, shape: '11 digits' },
  MT: { prefix: 'MT', body: /^\d{8}$/, shape: '8 digits' },
  NL: { prefix: 'NL', body: /^[0-9A-Z]{12}$/, shape: '12 letters or digits' },
  PL: { prefix: 'PL', body: /^\d{10}$/, shape: '10 digits' },
  PT: { prefix: 'PT', body: /^\d{9}$/, shape: '9 digits' },
  RO: { prefix: 'RO', body: /^[1-9]\d{1,9}$/, shape: '2 to 10 digits without leading zeros' },
  SE: { prefix: 'SE', body: /^\d{12}$/, shape: '12 digits' },
  SI: { prefix: 'SI', body: /^\d{8}$/, shape: '8 digits' },
  SK: { prefix: 'SK', body: /^\d{10}$/, shape: '10 digits' },
  // Northern Ireland traders keep an EU VAT number for goods (XI). "GB" numbers were NIF-IVA until Brexit: which of the
  // two an operation may carry depends on its date (1254, 1255), judged with the invoice's dates, not here.
  GB: { prefix: 'XI', alsoPrefix: 'GB', body: /^([0-9A-Z]{5}|[0-9A-Z]{9}|[0-9A-Z]{12})$/, shape: '5, 9 or 12 letters or digits' },
};

const COUNTRY_BY_PREFIX: ReadonlyMap<string, string> = new Map(
  Object.entries(FORMATS).flatMap(
    ([country, f]) => [[f.prefix, country], ...(f.alsoPrefix ? [[f.alsoPrefix, country]] : [])] as [string, string][],
  ),
);

/**
 * Structure of an EU VAT number (IDType 02) for the recipient's country: it must start with that
 * country's VAT prefix (the authority compares them, error 1122) and the rest must have the country's
 * shape. Without a country (CodigoPais is optional for IDType 02) the prefix names it. Not a VIES check:
 * the number may still not exist. Spaces, dots and hyphens are ignored.
 */
export function validateEuVatNumber(country: string | undefined, id: string): EuVatCheck {
  const normalized = id.toUpperCase().replace(/[\s.-]/g, '');
  const countryCode = country === undefined ? COUNTRY_BY_PREFIX.get(normalized.slice(0, 2)) : country.trim().toUpperCase();
  if (countryCode === undefined) {
    return {
      valid: false,
      normalized,
      problem: 'shape',
      reason: 'without a country, the number must start with an EU VAT prefix (such as FR, DE, EL or XI)',
    };
  }
  const format = FORMATS[countryCode];
  if (!format) {
    const reason =
      countryCode === 'ES'
        ? 'a Spanish recipient is identified by NIF, not by an EU VAT number'
        : `${countryCode} does not issue EU VAT numbers`;
    return { valid: false, normalized, problem: 'country', reason };
  }
  if (!normalized.startsWith(format.prefix) && !(format.alsoPrefix && normalized.startsWith(format.alsoPrefix))) {
    return {
      valid: false,
      normalized,
      problem: 'prefix',
      reason: `a ${countryCode} VAT number must start with the prefix ${format.prefix}`,
    };
  }
  if (!format.body.test(normalized.slice(2))) {
    return {
      valid: false,
      normalized,
      problem: 'shape',
      reason: `${countryCode} VAT numbers are ${format.prefix} followed by ${format.shape}`,
    };
  }
  return { valid: true, normalized };
}
