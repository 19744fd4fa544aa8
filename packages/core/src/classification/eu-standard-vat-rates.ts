import type { EuMemberState } from '../code-lists';

/** Date the table below was last checked against the European Commission's rate list. */
export const EU_STANDARD_VAT_RATES_AS_OF = '2025-08-01';

/**
 * Standard VAT rate of each member state, in percent: the rate an OSS sale to a consumer there carries
 * unless the product has a reduced rate in that country. Recent changes: SK 23 (2025-01-01),
 * EE 24 (2025-07-01), RO 21 (2025-08-01), FI 25.5 (2024-09-01).
 */
export const EU_STANDARD_VAT_RATES: Readonly<Record<EuMemberState, number>> = {
  AT: 20,
  BE: 21,
  BG: 20,
  CY: 19,
  CZ: 21,
  DE: 19,
  DK: 25,
  EE: 24,
  ES: 21,
  FI: 25.5,
  FR: 20,
  GR: 24,
  HR: 25,
  HU: 27,
  IE: 23,
  IT: 22,
  LT: 21,
  LU: 17,
  LV: 21,
  MT: 18,
  NL: 21,
  PL: 23,
  PT: 23,
  RO: 21,
  SE: 25,
  SI: 22,
  SK: 23,
};
