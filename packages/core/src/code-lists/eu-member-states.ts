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

export function isEuMemberState(value: unknown): value is EuMemberState {
  return typeof value === 'string' && EU_SET.has(value);
}
