import type { CensusDetail, CensusResult, ViesDetail } from '@vf/authority-client';

/** A Spanish NIF with its holder's name, for the census; or an EU VAT number (`DE123456789`), for VIES. */
export type TaxIdQuestion = { nif: string; name: string } | { vatNumber: string };

/** What the census said of one NIF and name, now or within the caller's `max_age` (`cache`). */
export interface CensusTaxIdAnswer {
  nif: string;
  result: CensusResult;
  detail: CensusDetail;
  censusName?: string;
  source: 'aeat_census' | 'cache';
  checkedAt: Date;
}

/** What VIES said of one VAT number (asked each time: its consultation number is evidence of one check). */
export interface ViesTaxIdAnswer {
  vatNumber: string;
  result: CensusResult;
  detail: ViesDetail;
  faultCode?: string;
  requestIdentifier?: string;
  traderName?: string;
  source: 'vies';
  checkedAt: Date;
}

export type TaxIdAnswer = CensusTaxIdAnswer | ViesTaxIdAnswer;

export const isViesQuestion = (q: TaxIdQuestion): q is { vatNumber: string } => 'vatNumber' in q;
