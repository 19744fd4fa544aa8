/** L7 IDOtro/IDType: how a recipient without a Spanish NIF is identified. */
export const ID_TYPES = {
  '02': 'EU VAT number (NIF-IVA)',
  '03': 'Passport',
  '04': 'Official identity document of the country of residence',
  '05': 'Residence certificate',
  '06': 'Other supporting document',
  '07': 'Not registered in the census (no censado)',
} as const;

export type IdType = keyof typeof ID_TYPES;

export function isIdType(value: unknown): value is IdType {
  return typeof value === 'string' && Object.hasOwn(ID_TYPES, value);
}
