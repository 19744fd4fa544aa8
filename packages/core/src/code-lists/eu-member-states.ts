/** The 27 EU member states by ISO code (Greece is GR here; its VAT prefix is EL). */
export const EU_MEMBER_STATES = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
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
] as const;

export type EuMemberState = (typeof EU_MEMBER_STATES)[number];

const EU_SET: ReadonlySet<string> = new Set(EU_MEMBER_STATES);

/** VIES's member-state codes, in order: VAT prefixes, so Greece is EL, and Northern Ireland's XI (GB left VIES in 2021). */
export const VIES_COUNTRY_CODES: ReadonlySet<string> = new Set(
  [...EU_MEMBER_STATES.map((code) => (code === 'GR' ? 'EL' : code)), 'XI'].sort(),
);

export function isEuMemberState(value: unknown): value is EuMemberState {
  return typeof value === 'string' && EU_SET.has(value);
}
