export type TaxIdCheckRefusalCode = 'census_unavailable' | 'vies_unavailable' | 'taxpayer_not_found' | 'tax_id_checks_exceeded';

/** A check this deployment cannot make, or one naming a taxpayer that is not the account's: the API answers it as a problem. */
export class TaxIdCheckRefusal extends Error {
  constructor(
    readonly code: TaxIdCheckRefusalCode,
    message: string,
  ) {
    super(message);
    this.name = 'TaxIdCheckRefusal';
  }
}
