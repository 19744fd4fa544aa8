/** A VAT number as VIES takes it: the member state's code and the number without it. */
export interface ViesVatNumber {
  countryCode: string;
  vatNumber: string;
}

/** VIES's member-state codes: Greece is EL (not GR), Northern Ireland XI. */
const VIES_COUNTRIES = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'EL',
  'ES',
  'FI',
  'FR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
  'XI',
]);

/**
 * Reads an EU VAT number (`DE123456789`, spaces, dots and dashes aside): Greece's ISO code GR is taken as EL; GB is
 * refused, since Great Britain's numbers are not in VIES for dates from 2021 (Northern Ireland's are, as XI).
 */
export function readViesVatNumber(input: string): ViesVatNumber | { refused: string } {
  const text = input.toUpperCase().replace(/[\s.-]/g, '');
  const match = /^([A-Z]{2})([0-9A-Z+*]{2,12})$/.exec(text);
  if (!match) return { refused: 'an EU VAT number is its country code and 2 to 12 letters or digits (DE123456789)' };
  const countryCode = match[1] === 'GR' ? 'EL' : match[1]!;
  if (countryCode === 'GB') {
    return { refused: "Great Britain's VAT numbers are not in VIES since 2021 (Northern Ireland's are, with the prefix XI)" };
  }
  if (!VIES_COUNTRIES.has(countryCode)) return { refused: `${countryCode} is not a VIES member state code (Greece is EL)` };
  return { countryCode, vatNumber: match[2]! };
}
