import { isRegimeKeyFor, type TaxType } from '@vf/core';
import { text } from '@vf/xml';
import { isVatOrIgic, WITH_RECIPIENTS, type AltaFacts, type LineFacts } from './alta-facts';
import { abs, quotaWithin, sign } from './amounts';
import { madridDateNumber } from '../spain-time';
import type { RuleContext } from './rule-context';
import { vatRateError } from './vat-rate-rules';

// Each DetalleDesglose (AEAT Validaciones y errores v1.2.0 §3.1.3.15; lists L1, L8, L9, L10 of Orden HAC/1177/2024): the regime a tax takes,
// what each regime allows, exempt lines, S1/S2/N1/N2, rates and recargo. The first finding of the first line
// that has one is the record's code.

const TEN_EUROS = 1000n;
/**
 * From this date IPSI lines without ClaveRegimen are refused (1245), and those with one outside the IPSI list too
 * (1246), instead of accepted with errors (2009; Validaciones y errores v1.2.2 §15.6).
 */
const IPSI_REGIME_REQUIRED_FROM = 20270101;

function regimeError(line: LineFacts, ctx: RuleContext): number | undefined {
  const { tax, regime } = line;
  if (regime === undefined) {
    if (tax === '01' || tax === '03') return 1245;
    if (tax === '02' && ctx.ruleSet === 'current' && madridDateNumber(ctx.now) >= IPSI_REGIME_REQUIRED_FROM) return 1245;
    return undefined;
  }
  // The previous rules took ClaveRegimen only with IVA and IGIC; the current ones with IPSI too.
  if (tax === '05' || (tax === '02' && ctx.ruleSet === 'previous')) return 1260;
  if (isRegimeKeyFor(tax as TaxType, regime)) return undefined;
  const ipsiGracePeriod = tax === '02' && ctx.ruleSet === 'current' && madridDateNumber(ctx.now) < IPSI_REGIME_REQUIRED_FROM;
  return ipsiGracePeriod ? undefined : 1246;
}

function costBaseError(line: LineFacts, type: string): number | undefined {
  if (line.costBase !== undefined && line.regime !== '06' && line.tax !== '02' && line.tax !== '05') return 1257;
  if (line.regime === '06' && (['F2', 'F3', 'R5'].includes(type) || line.costBase === undefined)) return 1202;
  return undefined;
}

/** What each ClaveRegimen allows as CalificacionOperacion or OperacionExenta. */
function regimeQualificationError(line: LineFacts, alta: AltaFacts, ctx: RuleContext): number | undefined {
  const { regime, qualification: q, exemption: e, tax } = line;
  const current = ctx.ruleSet === 'current';
  if (current && regime === '02' && isVatOrIgic(tax) && q !== undefined) return 1286;
  if (regime === '03' && q !== undefined && q !== 'S1') return 1200;
  if (regime === '04' && q !== undefined && q !== 'S2') return 1201;
  if (regime === '07' && (['S2', 'N1', 'N2'].includes(q ?? '') || ['E2', 'E3', 'E4', 'E5'].includes(e ?? ''))) return 1203;
  if (regime === '10' && (q !== 'N1' || alta.type !== 'F1' || !alta.recipients.every((r) => text(r, 'NIF') !== undefined))) return 1205;
  if (regime === '08' && q !== 'N2') return 1252;
  if (current && regime === '20' && tax === '03' && q !== 'N2') return 1293;
  return undefined;
}

function exemptLineError(line: LineFacts, alta: AltaFacts, ctx: RuleContext): number | undefined {
  const { exemption: e, tax } = line;
  if ([line.rate, line.quota, line.surchargeRate, line.surchargeQuota].some((v) => v !== undefined)) return 1238;
  if ((e === 'E7' || e === 'E8') && tax !== '03') return 1182;
  if (line.regime === '01' && isVatOrIgic(tax) && (e === 'E2' || e === 'E3')) return 1199;
  // E5 with IVA: recipients only through IDOtro (current rules).
  if (ctx.ruleSet === 'current' && e === 'E5' && tax === '01' && alta.recipients.some((r) => text(r, 'NIF') !== undefined)) return 1289;
  return undefined;
}

function surchargeError(line: LineFacts, ctx: RuleContext): number | undefined {
  const hasSurcharge = line.surchargeRate !== undefined || line.surchargeQuota !== undefined;
  if (hasSurcharge && line.qualification !== 'S1') return 1281;
  if ((line.surchargeRate === undefined) !== (line.surchargeQuota === undefined)) return 1284;
  // The previous rules tied recargo de equivalencia to ClaveRegimen 18 (codes the current table dropped).
  if (ctx.ruleSet === 'previous' && line.tax === '01' && line.qualification === 'S1') {
    if (hasSurcharge && line.regime !== '18') return 1279;
    if (!hasSurcharge && line.regime === '18') return 1280;
  }
  return undefined;
}

function s1Error(line: LineFacts, alta: AltaFacts): number | undefined {
  const { rate, quota, costBase, base } = line;
  if (line.regime === '06' && (rate === undefined || quota === undefined)) return 1209;
  if (costBase === undefined && (rate === undefined || quota === undefined)) return 1208;
  if (quota !== undefined && sign(quota) !== 0 && sign(base) !== 0 && sign(quota) !== sign(base)) return 1143;
  if (quota !== undefined && costBase !== undefined && sign(quota) !== 0 && sign(costBase) !== 0 && sign(quota) !== sign(costBase))
    return 1140;
  // The quota is not checked for rectifications by differences nor for R2/R3 (AEAT Validaciones y errores v1.2.0 §3.1.3.15).
  const quotaChecked = alta.rectificationType !== 'I' && alta.type !== 'R2' && alta.type !== 'R3';
  if (quotaChecked && rate !== undefined && quota !== undefined) {
    if (costBase !== undefined && !quotaWithin(costBase, rate, quota, TEN_EUROS)) return 1144;
    if (costBase === undefined && !quotaWithin(base, rate, quota, TEN_EUROS)) return 1142;
  }
  return line.tax === '01' ? vatRateError(line, alta.taxDate) : undefined;
}

function lineError(line: LineFacts, alta: AltaFacts, ctx: RuleContext): number | undefined {
  const found = regimeError(line, ctx) ?? costBaseError(line, alta.type) ?? regimeQualificationError(line, alta, ctx);
  if (found) return found;
  if (line.exemption !== undefined) return exemptLineError(line, alta, ctx);
  const surcharge = surchargeError(line, ctx);
  if (surcharge) return surcharge;
  switch (line.qualification) {
    case 'S1':
      return s1Error(line, alta);
    case 'S2':
      if (!WITH_RECIPIENTS.includes(alta.type)) return 1197;
      return line.rate !== 0n || line.quota !== 0n ? 1198 : undefined;
    default:
      if (line.tax === '01' && [line.rate, line.quota].some((v) => v !== undefined)) return 1237;
      return line.quota !== undefined && abs(line.quota) !== 0n ? 1207 : undefined;
  }
}

export function linesError(alta: AltaFacts, ctx: RuleContext): number | undefined {
  for (const line of alta.lines) {
    const code = lineError(line, alta, ctx);
    if (code) return code;
  }
  return undefined;
}
