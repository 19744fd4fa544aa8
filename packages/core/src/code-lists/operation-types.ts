/** L9 CalificacionOperacion. */
export const OPERATION_QUALIFICATIONS = {
  S1: 'Subject and not exempt, no reverse charge',
  S2: 'Subject and not exempt, reverse charge',
  N1: 'Not subject (arts. 7, 14, others)',
  N2: 'Not subject by place-of-supply rules',
} as const;

/** L10 OperacionExenta; E7 and E8 exist only for IGIC. */
export const EXEMPTION_CODES = {
  E1: 'Exempt under art. 20',
  E2: 'Exempt under art. 21',
  E3: 'Exempt under art. 22',
  E4: 'Exempt under arts. 23 and 24',
  E5: 'Exempt under art. 25',
  E6: 'Exempt on other grounds',
  E7: 'Exempt (IGIC only)',
  E8: 'Exempt (IGIC only)',
} as const;

export type OperationQualification = keyof typeof OPERATION_QUALIFICATIONS;
export type ExemptionCode = keyof typeof EXEMPTION_CODES;

export const IGIC_ONLY_EXEMPTIONS: readonly ExemptionCode[] = ['E7', 'E8'];

export function isOperationQualification(value: unknown): value is OperationQualification {
  return typeof value === 'string' && Object.hasOwn(OPERATION_QUALIFICATIONS, value);
}

export function isExemptionCode(value: unknown): value is ExemptionCode {
  return typeof value === 'string' && Object.hasOwn(EXEMPTION_CODES, value);
}
