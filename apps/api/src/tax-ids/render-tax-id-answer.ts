import type { TaxIdAnswer, TaxIdAnswerJson } from '@vf/contract';

/** One tax ID's answer as the API writes it: `nif` for the census's, `vat_number` for VIES's. */
export function renderTaxIdAnswer(a: TaxIdAnswer): TaxIdAnswerJson {
  if (a.source === 'vies') {
    return {
      vat_number: a.vatNumber,
      result: a.result,
      detail: a.detail,
      ...(a.faultCode !== undefined && { fault_code: a.faultCode }),
      ...(a.requestIdentifier !== undefined && { request_identifier: a.requestIdentifier }),
      ...(a.traderName !== undefined && { trader_name: a.traderName }),
      source: a.source,
      checked_at: a.checkedAt.toISOString(),
    };
  }
  return {
    nif: a.nif,
    result: a.result,
    detail: a.detail,
    ...(a.censusName !== undefined && { census_name: a.censusName }),
    source: a.source,
    checked_at: a.checkedAt.toISOString(),
  };
}
