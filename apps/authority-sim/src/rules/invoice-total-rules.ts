import { text } from '@vf/xml';
import type { AltaFacts } from './alta-facts';
import { abs, toHundredths } from './amounts';
import type { RuleContext } from './rule-context';

// Rules on the invoice as a whole: the F2 cap (1150), Macrodato (1138, 1139), ClaveRegimen 14 (1148, 1149) and the
// totals, which the previous rules rejected (1210, 1216) and the current ones accept with errors (2005, 2006).

const TEN_EUROS = 1000n;
const F2_CAP = 300_000n;
const MACRODATO_FROM = 10_000_000_000n;
// Totals are not checked for these regimes (REBU, travel agencies, VAT groups, IPSI/IGIC, agencies as mediators).
const TOTALS_UNCHECKED = new Set(['03', '05', '06', '08', '09']);
const PUBLIC_BODY_NIF = /^[PQSV]/;

/** Which total is off by more than 10.00, if any: 'total' (ImporteTotal) before 'tax' (CuotaTotal). */
export function totalsMismatch(
  lines: readonly { regime?: string; base: bigint; quota?: bigint; surchargeQuota?: bigint }[],
  totalTax: string | undefined,
  total: string | undefined,
): 'total' | 'tax' | undefined {
  if (lines.some((l) => l.regime !== undefined && TOTALS_UNCHECKED.has(l.regime))) return undefined;
  const quotas = lines.reduce((acc, l) => acc + (l.quota ?? 0n) + (l.surchargeQuota ?? 0n), 0n);
  const bases = lines.reduce((acc, l) => acc + l.base, 0n);
  if (abs((toHundredths(total) ?? 0n) - (bases + quotas)) > TEN_EUROS) return 'total';
  if (abs((toHundredths(totalTax) ?? 0n) - quotas) > TEN_EUROS) return 'tax';
  return undefined;
}

export function invoiceTotalError(alta: AltaFacts, ctx: RuleContext): number | undefined {
  const { raw, lines, type } = alta;
  if (
    type === 'F2' &&
    text(raw, 'NumRegistroAcuerdoFacturacion') === undefined &&
    text(raw, 'FacturaSinIdentifDestinatarioArt61d') !== 'S'
  ) {
    const sum = lines.reduce((acc, l) => acc + l.base + (l.quota ?? 0n), 0n);
    if (sum > F2_CAP + TEN_EUROS) return 1150;
  }
  const isMacro = abs(toHundredths(text(raw, 'ImporteTotal')) ?? 0n) >= MACRODATO_FROM;
  const macrodato = text(raw, 'Macrodato') === 'S';
  if (isMacro && !macrodato) return 1139;
  if (!isMacro && macrodato) return 1138;
  if (lines.some((l) => l.regime === '14')) {
    if (!['F1', 'R1', 'R2', 'R3', 'R4'].includes(type)) return 1148;
    const publicBodies = alta.recipients.every((r) => {
      const nif = text(r, 'NIF');
      return nif !== undefined && PUBLIC_BODY_NIF.test(nif) && !ctx.unknown.has(nif);
    });
    if (!publicBodies) return 1149;
  }
  if (ctx.ruleSet === 'previous') {
    const mismatch = totalsMismatch(lines, text(raw, 'CuotaTotal'), text(raw, 'ImporteTotal'));
    if (mismatch) return mismatch === 'total' ? 1210 : 1216;
  }
  return undefined;
}
