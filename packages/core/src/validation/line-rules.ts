import { isExemptionCode } from '../code-lists';
import { centsApart, formatCents, percentOf } from '../money';
import type { IssueCollector } from './issue-collector';
import { taxPointDate, type LineContext } from './line-context';
import type { ParsedLine } from './read-breakdown';
import { checkVatRates } from './vat-rate-rules';

// The authority's tolerance on CuotaRepercutida against base × rate (1142).
const TAX_TOLERANCE_CENTS = 1000n;
// IPSI lines without ClaveRegimen are accepted with error 2009 until the end of 2026, refused after.
const IPSI_REGIME_REQUIRED_FROM = '2027-01-01';

/** Rules on one breakdown line: regime presence, operation type, what a line may carry, tax arithmetic. */
export function checkLine(line: ParsedLine, ctx: LineContext, issues: IssueCollector): void {
  checkRegimePresence(line, ctx, issues);
  const op = line.operationType;
  if (!op || !line.taxType) return;
  if (isExemptionCode(op)) checkExemptLine(line, op, issues);
  else if (op === 'S1') checkSubjectLine(line, ctx, issues);
  else if (op === 'S2') checkReverseChargeLine(line, ctx, issues);
  else checkNotSubjectLine(line, issues);
  checkSurchargePairing(line, issues);
  if (op === 'S1' && line.taxType === '01') checkVatRates(line, taxPointDate(ctx), issues);
}

function checkRegimePresence(line: ParsedLine, ctx: LineContext, issues: IssueCollector): void {
  if (line.regimeType !== undefined) return;
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

function checkExemptLine(line: ParsedLine, op: string, issues: IssueCollector): void {
  if ((op === 'E7' || op === 'E8') && line.taxType !== '03') {
    issues.error(`${line.path}.operation_type`, 'exemption_igic_only', `${op} exists only for IGIC (tax_type 03).`, 1182);
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
  if (line.taxRate === undefined)
    issues.error(`${line.path}.tax_rate`, 'required', 'tax_rate is required when operation_type is S1.', 1208);
  if (line.taxAmount === undefined)
    issues.error(`${line.path}.tax_amount`, 'required', 'tax_amount is required when operation_type is S1.', 1208);
  const { baseAmount: base, taxRate: rate, taxAmount: tax } = line;
  if (!base || !rate || !tax) return;
  // The authority skips this check for differences-type corrections and for R2/R3 (bad debts).
  if (ctx.rectificationType === 'I' || ctx.invoiceType === 'R2' || ctx.invoiceType === 'R3') return;
  const field = `${line.path}.tax_amount`;
  if (tax.cents !== 0n && base.cents !== 0n && tax.cents < 0n !== base.cents < 0n) {
    issues.error(field, 'tax_sign_mismatch', 'tax_amount must have the same sign as base_amount.', 1143);
    return;
  }
  // Exact comparison: |tax − base × rate / 100| ≤ 10.00, all in 1/10000 of a cent.
  const exactGap = centsApart(tax.cents * 10000n, base.cents * rate.hundredths);
  const expected = percentOf(base.cents, rate.hundredths);
  if (exactGap > TAX_TOLERANCE_CENTS * 10000n) {
    issues.error(
      field,
      'tax_amount_mismatch',
      `tax_amount ${tax.literal} does not match base_amount × tax_rate / 100 = ${formatCents(expected)} (the authority allows ±10.00).`,
      1142,
    );
  } else if (tax.cents !== expected) {
    issues.warning(
      field,
      'tax_amount_rounding',
      `tax_amount ${tax.literal} differs from base_amount × tax_rate / 100 = ${formatCents(expected)}; accepted (within ±10.00).`,
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
