import type { TaxIdAnswer } from './tax-id-check-service';

/** One tax ID's answer as the API writes it. */
export function renderTaxIdAnswer(a: TaxIdAnswer) {
  return {
    nif: a.nif,
    result: a.result,
    detail: a.detail,
    ...(a.censusName !== undefined && { census_name: a.censusName }),
    source: a.source,
    checked_at: a.checkedAt.toISOString(),
  };
}
