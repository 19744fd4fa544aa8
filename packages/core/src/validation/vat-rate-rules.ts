import { formatRate } from '../money';
import type { IssueCollector } from './issue-collector';
import type { ParsedLine } from './read-breakdown';

interface Window {
  from?: string;
  to?: string;
}

// IVA rates in hundredths of a percent with the operation dates they are valid for (AEAT "Validaciones y errores"
// v1.2.0 §3.1.3.15).
const CURRENT_RATES: ReadonlyMap<bigint, { window: Window; authorityCode: number } | undefined> = new Map([
  [0n, undefined],
  [400n, undefined],
  [1000n, undefined],
  [2100n, undefined],
  [500n, { window: { from: '2022-07-01', to: '2024-09-30' }, authorityCode: 1194 }],
  [200n, { window: { from: '2024-10-01', to: '2024-12-31' }, authorityCode: 1235 }],
  [750n, { window: { from: '2024-10-01', to: '2024-12-31' }, authorityCode: 1236 }],
]);
// Rates of earlier IVA laws, accepted only for operations up to 2012 (1132), with their surcharge.
const LEGACY_RATES: ReadonlyMap<bigint, bigint> = new Map([
  [1600n, 400n],
  [1800n, 400n],
  [700n, 100n],
  [800n, 100n],
]);
const SURCHARGE_RATES: ReadonlySet<bigint> = new Set([0n, 26n, 50n, 62n, 100n, 140n, 175n, 520n]);

/** IVA rate list with its date windows, and the equivalence-surcharge rate that goes with each rate. */
export function checkVatRates(line: ParsedLine, taxPoint: string | undefined, issues: IssueCollector): void {
  const rate = line.taxRate;
  if (!rate || !taxPoint) return;
  const field = `${line.path}.tax_rate`;
  const legacySurcharge = LEGACY_RATES.get(rate.hundredths);
  if (legacySurcharge !== undefined) {
    if (taxPoint > '2012-12-31') {
      issues.error(
        field,
        'vat_rate_out_of_period',
        `An IVA rate of ${rate.literal}% is only accepted for operations dated 2012 or earlier.`,
        1132,
      );
    } else if (line.surchargeRate && line.surchargeRate.hundredths !== legacySurcharge) {
      issues.error(
        `${line.path}.surcharge_rate`,
        'surcharge_rate_mismatch',
        `With a ${rate.literal}% IVA rate the surcharge rate was ${formatRate(legacySurcharge)}%.`,
        1135,
      );
    }
    return;
  }
  if (!CURRENT_RATES.has(rate.hundredths)) {
    issues.error(
      field,
      'invalid_vat_rate',
      'tax_rate for IVA must be one of 0, 2, 4, 5, 7.5, 10 or 21 (2, 5 and 7.5 only in their periods).',
      1124,
    );
    return;
  }
  const limited = CURRENT_RATES.get(rate.hundredths);
  if (limited && !inWindow(taxPoint, limited.window)) {
    issues.error(
      field,
      'vat_rate_out_of_period',
      `An IVA rate of ${rate.literal}% is only accepted for operations from ${limited.window.from} to ${limited.window.to} (operation_date, else invoice_date, is ${taxPoint}).`,
      limited.authorityCode,
    );
    return;
  }
  if (line.surchargeRate) checkSurchargeRate(line, rate.hundredths, taxPoint, issues);
}

function checkSurchargeRate(line: ParsedLine, vatRate: bigint, taxPoint: string, issues: IssueCollector): void {
  const surcharge = line.surchargeRate;
  if (!surcharge) return;
  const field = `${line.path}.surcharge_rate`;
  if (!SURCHARGE_RATES.has(surcharge.hundredths)) {
    issues.error(field, 'invalid_surcharge_rate', 'surcharge_rate must be one of 0, 0.26, 0.5, 0.62, 1, 1.4, 1.75 or 5.2.', 1127);
    return;
  }
  const expected = expectedSurcharges(vatRate, taxPoint, surcharge.hundredths);
  if (!expected.rates.includes(surcharge.hundredths)) {
    const allowed = expected.rates.map((r) => formatRate(r)).join(' or ');
    const message = allowed
      ? `With an IVA rate of ${formatRate(vatRate)}% on ${taxPoint} the surcharge rate must be ${allowed}.`
      : `No equivalence surcharge applies to an IVA rate of ${formatRate(vatRate)}% on ${taxPoint}.`;
    issues.error(field, 'surcharge_rate_mismatch', message, expected.authorityCode);
  }
}

// With 5 % only 0.5 or 0.62 (1160): 0.5 for operations in 2022 (1167), 0.62 from 2023 to 30-09-2024 (1168).
function fivePercentSurcharge(surcharge: bigint, taxPoint: string): { rates: bigint[]; authorityCode: number } {
  if (surcharge === 50n) return { rates: taxPoint <= '2022-12-31' ? [50n] : [62n], authorityCode: 1167 };
  if (surcharge === 62n) return { rates: taxPoint >= '2023-01-01' ? [62n] : [50n], authorityCode: 1168 };
  return { rates: taxPoint <= '2022-12-31' ? [50n] : [62n], authorityCode: 1160 };
}

function expectedSurcharges(vatRate: bigint, taxPoint: string, surcharge: bigint): { rates: bigint[]; authorityCode: number } {
  switch (vatRate) {
    case 2100n:
      return { rates: [520n, 175n], authorityCode: 1162 };
    case 1000n:
      return { rates: [140n], authorityCode: 1163 };
    case 750n:
      return { rates: [100n], authorityCode: 1169 };
    case 400n:
      return { rates: [50n], authorityCode: 1164 };
    case 200n:
      return { rates: [26n], authorityCode: 1166 };
    case 500n:
      return fivePercentSurcharge(surcharge, taxPoint);
    default:
      // 0 %: surcharge 0 from 2023-01-01 to 2024-09-30 (1165), 0.26 from 2024-10-01 (1170), none before (1277).
      if (taxPoint >= '2024-10-01') return { rates: [26n], authorityCode: 1170 };
      if (taxPoint >= '2023-01-01') return { rates: [0n], authorityCode: 1165 };
      return { rates: [], authorityCode: 1277 };
  }
}

function inWindow(date: string, window: Window): boolean {
  return (!window.from || date >= window.from) && (!window.to || date <= window.to);
}
