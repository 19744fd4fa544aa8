import type { CheckedLink, FoundAnomaly } from '@vf/contract';

/** What a walk found; a link and an anomaly are written in @vf/contract, as the API answers a check with them. */
export interface WalkResult {
  links: CheckedLink[];
  anomalies: FoundAnomaly[];
}

/** L1E: integridad-huella 01, integridad-firma 02, the previous huella field not the previous record's 08, a time before the previous one 11, ahead of the clock 13. */
export const ANOMALY_OF = { hash: '01', signature: '02', link: '08', date: '11', ahead: '13' } as const;
