// The census's and VIES's words are those @vf/authority-client reads from their answers; @vf/tax-ids builds these
// answers from its verdicts, so the type check there says when the two part.

/** A Spanish NIF with its holder's name, for the census; or an EU VAT number (`DE123456789`), for VIES. */
export type TaxIdQuestion = { nif: string; name: string } | { vatNumber: string };

/** Tax IDs to check, as the API's checks take them. */
export interface TaxIdCheckInput {
  taxIds: TaxIdQuestion[];
  /** Seconds: an answer older than this is asked again. */
  maxAge: number;
  /**
   * A taxpayer of the account: census checks go out under its certificate (the platform's otherwise), VIES checks under
   * its VAT number (ES and its NIF).
   */
  taxpayerId?: string;
}

/** What the census said of one NIF and name, now or within the caller's `max_age` (`cache`). */
export interface CensusTaxIdAnswer {
  nif: string;
  result: 'valid' | 'invalid' | 'unknown';
  detail: 'identified' | 'similar' | 'not_identified' | 'deregistered' | 'revoked' | 'not_processed';
  censusName?: string;
  source: 'aeat_census' | 'cache';
  checkedAt: Date;
}

/** What VIES said of one VAT number (asked each time: its consultation number is evidence of one check). */
export interface ViesTaxIdAnswer {
  vatNumber: string;
  result: 'valid' | 'invalid' | 'unknown';
  detail: 'identified' | 'not_identified' | 'not_processed';
  faultCode?: string;
  requestIdentifier?: string;
  traderName?: string;
  source: 'vies';
  checkedAt: Date;
}

export type TaxIdAnswer = CensusTaxIdAnswer | ViesTaxIdAnswer;

/**
 * One answer as the API writes it in JSON (`nif` for the census's, `vat_number` for VIES's): in a check's answer, in a
 * registration's `recipient_check`, kept on the invoice, and in the problem that refuses one.
 */
export interface TaxIdAnswerJson {
  nif?: string;
  vat_number?: string;
  result: TaxIdAnswer['result'];
  detail: TaxIdAnswer['detail'];
  census_name?: string;
  fault_code?: string;
  request_identifier?: string;
  trader_name?: string;
  source: TaxIdAnswer['source'];
  checked_at: string;
}
