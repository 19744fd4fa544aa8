import type { LineFacts } from './alta-facts';

// IVA rates and recargo de equivalencia by operation date (AEAT Validaciones y errores v1.2.0 §3.1.3.15; errors 1124, 1132, 1194, 1235, 1236,
// 1127, 1135, 1160-1170, 1277). Rates in hundredths of a percent.

const RATES_NOW = new Set([0n, 200n, 400n, 500n, 750n, 1000n, 2100n]);
/** 7, 8, 16 and 18 %: valid only for operations up to 2012 (1132). */
const RATES_UP_TO_2012 = new Set([700n, 800n, 1600n, 1800n]);
const SURCHARGES_NOW = new Set([0n, 26n, 50n, 62n, 100n, 140n, 175n, 520n]);
/** 4 % (with 16 % or 18 % IVA): valid only for operations up to 2012 (1135). */
const SURCHARGES_UP_TO_2012 = new Set([400n]);

const between = (date: number, from: number, to: number) => date >= from && date <= to;
const yearOf = (date: number) => Math.floor(date / 10000);

function rateError(rate: bigint, date: number): number | undefined {
  if (RATES_UP_TO_2012.has(rate)) return yearOf(date) > 2012 ? 1132 : undefined;
  if (!RATES_NOW.has(rate)) return 1124;
  if (rate === 500n && !between(date, 20220701, 20240930)) return 1194;
  if (rate === 200n && !between(date, 20241001, 20241231)) return 1235;
  if (rate === 750n && !between(date, 20241001, 20241231)) return 1236;
  return undefined;
}

/** The recargo each IVA rate admits, by date. */
function surchargePairError(rate: bigint, surcharge: bigint, date: number): number | undefined {
  switch (rate) {
    case 2100n:
      return surcharge === 520n || surcharge === 175n ? undefined : 1162;
    case 1000n:
      return surcharge === 140n ? undefined : 1163;
    case 400n:
      return surcharge === 50n ? undefined : 1164;
    case 500n:
      if (surcharge !== 50n && surcharge !== 62n) return 1160;
      if (surcharge === 50n && !between(date, 20220701, 20221231)) return 1167;
      if (surcharge === 62n && !between(date, 20230101, 20240930)) return 1168;
      return undefined;
    case 750n:
      return surcharge === 100n ? undefined : 1169;
    case 200n:
      return surcharge === 26n ? undefined : 1166;
    case 0n:
      if (surcharge !== 0n && surcharge !== 26n) return 1277;
      if (surcharge === 0n && !between(date, 20230101, 20240930)) return 1165;
      if (surcharge === 26n && date < 20241001) return 1170;
      return undefined;
    default:
      return undefined;
  }
}

/** IVA (01) lines qualified S1 with a rate. */
export function vatRateError(line: LineFacts, taxDate: number): number | undefined {
  if (line.rate === undefined) return undefined;
  const rate = rateError(line.rate, taxDate);
  if (rate) return rate;
  if (line.regime === '11' && line.rate !== 2100n) return 1206;
  const surcharge = line.surchargeRate;
  if (surcharge === undefined) return undefined;
  if (SURCHARGES_UP_TO_2012.has(surcharge)) return yearOf(taxDate) > 2012 ? 1135 : undefined;
  if (!SURCHARGES_NOW.has(surcharge)) return 1127;
  return surchargePairError(line.rate, surcharge, taxDate);
}
