import { isExemptionCode, isRegimeKeyFor, regimeKeyCodes } from '../code-lists';
import { centsApart, formatCents, percentOf } from '../money';
import type { IssueCollector } from './issue-collector';
import { taxPointDate, type LineContext } from './line-context';
import type { ParsedLine } from './read-breakdown';
import { checkVatRates } from './vat-rate-rules';

// The authority's tolerance on CuotaRepercutida against base × rate (1142).
const TAX_TOLERANCE_CENTS = 1000n;
// IPSI lines without ClaveRegimen, or with one outside the IPSI list, are accepted with error 2009 until the end of
// 2026 and refused after (AEAT "Validaciones y errores" v1.2.2 §15.6). The date is the one the rule is applied on:
// `today`, the day the record is generated, not the invoice's date.
const IPSI_REGIME_REQUIRED_FROM = '2027-01-01';

/**
 * Rules on one breakdown line (AEAT "Validaciones y errores" v1.2.0 §3.1.3.15): regime presence, operation type, what a
 * line may carry, tax arithmetic.
 */
export function checkLine(line: ParsedLine, ctx: LineContext, issues: IssueCollector): void {
  checkRegimePresence(line, ctx, issues);
  checkCostBase(line, issues);
  const op = line.operationType;
  if (!op || !line.taxType) return;
  if (isExemptionCode(op)) checkExemptLine(line, op, ctx, issues);
  else if (op === 'S1') checkSubjectLine(line, ctx, issues);
  else if (op === 'S2') checkReverseChargeLine(line, ctx, issues);
  else checkNotSubjectLine(line, issues);
  checkSurchargePairing(line, issues);
  if (op === 'S1' && line.taxType === '01') checkVatRates(line, taxPointDate(ctx), issues);
}

function checkRegimePresence(line: ParsedLine, ctx: LineContext, issues: IssueCollector): void {
  if (line.regimeType !== undefined) {
    if (line.taxType === '02' && line.regimeType !== null) checkIpsiRegimeKey(line.regimeType, `${line.path}.regime_type`, ctx, issues);
    return;
  }
  const field = `${line.path}.regime_type`;
  if (line.taxType === '01' || line.taxType === '03') {
    issues.error(field, 'required', 'regime_type is required when tax_type is 01 (IVA) or 03 (IGIC).', 1245);
  } else if (line.taxType === '02') {
    const message = 'regime_type should be given for IPSI (tax_type 02)';
    if (ctx.today >= IPSI_REGIME_REQUIRED_FROM) issues.error(field, 'required', `${message}.`, 2009);
    else
      issues.warning(
        field,
        'ipsi_regime_missing',
        `${message}: the authority accepts it with error 2009 until 31-12-2026 and refuses it from 2027.`,
        2009,
      );
  }
}

function checkIpsiRegimeKey(regime: string, field: string, ctx: LineContext, issues: IssueCollector): void {
  if (isRegimeKeyFor('02', regime)) return;
  const message = `regime_type for tax_type 02 (IPSI) should be one of ${regimeKeyCodes('02').join(', ')}`;
  if (ctx.today >= IPSI_REGIME_REQUIRED_FROM) issues.error(field, 'invalid_code', `${message}.`, 1246);
  else
    issues.warning(
      field,
      'ipsi_regime_outside_list',
      `${message}: the authority accepts ${regime} with error 2009 until 31-12-2026 and refuses it (1246) from 2027.`,
      2009,
    );
}

// BaseImponibleACoste belongs to regime 06 (groups of entities) and to IPSI and other taxes (1257).
function checkCostBase(line: ParsedLine, issues: IssueCollector): void {
  if (line.costBaseAmount === undefined || line.costBaseAmount === null) return;
  if (line.regimeType !== '06' && line.taxType !== '02' && line.taxType !== '05') {
    issues.error(
      `${line.path}.cost_base_amount`,
      'not_allowed',
      'cost_base_amount is only allowed with regime_type 06 (group of entities) or tax_type 02 (IPSI) or 05 (other).',
      1257,
    );
  }
}

function checkExemptLine(line: ParsedLine, op: string, ctx: LineContext, issues: IssueCollector): void {
  if ((op === 'E7' || op === 'E8') && line.taxType !== '03') {
    issues.error(`${line.path}.operation_type`, 'exemption_igic_only', `${op} exists only for IGIC (tax_type 03).`, 1182);
  }
  // An intra-Community supply exempt under art. 25 (E5) goes to a customer identified abroad, never by Spanish NIF.
  if (op === 'E5' && line.taxType === '01' && ctx.recipients?.some((r) => r.kind === 'nif')) {
    issues.error(
      `${line.path}.operation_type`,
      'exemption_needs_foreign_recipient',
      'With E5 (IVA exempt under art. 25) every recipient is identified by a foreign id (country, id_type, id), not by Spanish NIF.',
      1289,
    );
  }
  reportPresent(
    line,
    ['tax_rate', 'tax_amount', 'surcharge_rate', 'surcharge_amount'],
    issues,
    'not_allowed_on_exempt_line',
    `an exempt line (${op}) carries no rate, tax or surcharge`,
    1238,
  );
}

function checkNotSubjectLine(line: ParsedLine, issues: IssueCollector): void {
  const op = line.operationType;
  if (line.taxType === '01') {
    reportPresent(
      line,
      ['tax_rate', 'tax_amount', 'surcharge_rate', 'surcharge_amount'],
      issues,
      'not_allowed_on_not_subject_line',
      `a not-subject IVA line (${op}) carries no rate, tax or surcharge`,
      1237,
    );
    return;
  }
  if (line.taxAmount && line.taxAmount.cents !== 0n) {
    issues.error(
      `${line.path}.tax_amount`,
      'tax_only_with_s1',
      `tax_amount must be 0 unless operation_type is S1 (this line is ${op}).`,
      1207,
    );
  }
  reportPresent(
    line,
    ['surcharge_rate', 'surcharge_amount'],
    issues,
    'surcharge_only_with_s1',
    'the equivalence surcharge is only allowed with operation_type S1',
    1281,
  );
}

function checkReverseChargeLine(line: ParsedLine, ctx: LineContext, issues: IssueCollector): void {
  if (ctx.invoiceType === 'F2' || ctx.invoiceType === 'R5') {
    issues.error(
      `${line.path}.operation_type`,
      'reverse_charge_not_allowed',
      `S2 (reverse charge) is only allowed on F1, F3 and R1 to R4 invoices, not ${ctx.invoiceType}.`,
      1197,
    );
  }
  for (const [key, value] of [
    ['tax_rate', line.taxRate],
    ['tax_amount', line.taxAmount],
  ] as const) {
    if (value === null) continue;
    const isZero = value !== undefined && ('cents' in value ? value.cents === 0n : value.hundredths === 0n);
    if (!isZero)
      issues.error(
        `${line.path}.${key}`,
        'reverse_charge_requires_zero',
        `With S2 (reverse charge) ${key} must be given as 0: the recipient accounts for the tax.`,
        1198,
      );
  }
  reportPresent(
    line,
    ['surcharge_rate', 'surcharge_amount'],
    issues,
    'surcharge_only_with_s1',
    'the equivalence surcharge is only allowed with operation_type S1',
    1281,
  );
}

function checkSubjectLine(line: ParsedLine, ctx: LineContext, issues: IssueCollector): void {
  // Rate and tax go with S1, except on a cost-base line outside regime 06 (1208); regime 06 needs them too (1209).
  const costBase = line.costBaseAmount ?? undefined;
  const requiredBy = line.regimeType === '06' ? 1209 : costBase === undefined ? 1208 : undefined;
  if (requiredBy !== undefined) {
    if (line.taxRate === undefined)
      issues.error(`${line.path}.tax_rate`, 'required', 'tax_rate is required when operation_type is S1.', requiredBy);
    if (line.taxAmount === undefined)
      issues.error(`${line.path}.tax_amount`, 'required', 'tax_amount is required when operation_type is S1.', requiredBy);
  }
  const { baseAmount, taxRate: rate, taxAmount: tax } = line;
  if (!baseAmount || !rate || !tax || costBase === null) return;
  // The authority skips this check for differences-type corrections and for R2/R3 (bad debts).
  if (ctx.rectificationType === 'I' || ctx.invoiceType === 'R2' || ctx.invoiceType === 'R3') return;
  // With a cost base, the tax is judged against it (1140, 1144); otherwise against the taxable base (1143, 1142).
  const { base, baseField, signCode, amountCode } = costBase
    ? { base: costBase, baseField: 'cost_base_amount', signCode: 1140, amountCode: 1144 }
    : { base: baseAmount, baseField: 'base_amount', signCode: 1143, amountCode: 1142 };
  const field = `${line.path}.tax_amount`;
  if (tax.cents !== 0n && base.cents !== 0n && tax.cents < 0n !== base.cents < 0n) {
    issues.error(field, 'tax_sign_mismatch', `tax_amount must have the same sign as ${baseField}.`, signCode);
    return;
  }
  // Exact comparison: |tax − base × rate / 100| ≤ 10.00, all in 1/10000 of a cent.
  const exactGap = centsApart(tax.cents * 10000n, base.cents * rate.hundredths);
  const expected = percentOf(base.cents, rate.hundredths);
  if (exactGap > TAX_TOLERANCE_CENTS * 10000n) {
    issues.error(
      field,
      'tax_amount_mismatch',
      `tax_amount ${tax.literal} does not match ${baseField} × tax_rate / 100 = ${formatCents(expected)} (the authority allows ±10.00).`,
      amountCode,
    );
  } else if (tax.cents !== expected) {
    issues.warning(
      field,
      'tax_amount_rounding',
      `tax_amount ${tax.literal} differs from ${baseField} × tax_rate / 100 = ${formatCents(expected)}; accepted (within ±10.00).`,
    );
  }
}

function checkSurchargePairing(line: ParsedLine, issues: IssueCollector): void {
  if (line.operationType !== 'S1') return;
  const { surchargeRate: rate, surchargeAmount: amount } = line;
  if (rate !== undefined && amount === undefined) {
    issues.error(`${line.path}.surcharge_amount`, 'required', 'surcharge_amount is required when surcharge_rate is given.', 1284);
  } else if (amount !== undefined && rate === undefined) {
    issues.error(`${line.path}.surcharge_rate`, 'required', 'surcharge_rate is required when surcharge_amount is given.', 1284);
  } else if (rate && amount && line.baseAmount) {
    const expected = percentOf(line.baseAmount.cents, rate.hundredths);
    if (amount.cents !== expected) {
      issues.warning(
        `${line.path}.surcharge_amount`,
        'surcharge_amount_rounding',
        `surcharge_amount ${amount.literal} differs from base_amount × surcharge_rate / 100 = ${formatCents(expected)}.`,
      );
    }
  }
}

type LineKey = 'tax_rate' | 'tax_amount' | 'surcharge_rate' | 'surcharge_amount';

function reportPresent(line: ParsedLine, keys: LineKey[], issues: IssueCollector, code: string, why: string, authorityCode: number): void {
  const values: Record<LineKey, unknown> = {
    tax_rate: line.taxRate,
    tax_amount: line.taxAmount,
    surcharge_rate: line.surchargeRate,
    surcharge_amount: line.surchargeAmount,
  };
  for (const key of keys) {
    if (values[key] !== undefined) issues.error(`${line.path}.${key}`, code, `${key} must be left out: ${why}.`, authorityCode);
  }
}
