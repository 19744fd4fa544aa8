import type { IssueCollector } from './issue-collector';
import type { LineContext } from './line-context';
import type { ParsedLine } from './read-breakdown';

// Regimes whose breakdown does not add up to the invoice totals (margin schemes, groups, other taxes).
export const REGIMES_WITHOUT_TOTALS_CHECK: readonly string[] = ['03', '05', '06', '08', '09'];

/** Rules tied to a line's ClaveRegimen (AEAT "Validaciones y errores" v1.2.0 §3.1.3.15). */
export function checkRegime(line: ParsedLine, ctx: LineContext, issues: IssueCollector): void {
  const { regimeType: regime, operationType: op, taxType: tax } = line;
  if (!regime || !op || !tax) return;
  const field = `${line.path}.operation_type`;
  const ivaOrIgic = tax === '01' || tax === '03';
  const exempt = op.startsWith('E');
  const fail = (code: string, message: string, authorityCode: number, at = field) => issues.error(at, code, message, authorityCode);

  switch (regime) {
    case '01':
      if (ivaOrIgic && (op === 'E2' || op === 'E3'))
        fail('regime_operation_mismatch', 'Regime 01 (general) cannot use the export exemptions E2 or E3; use regime 02.', 1199);
      break;
    case '02':
      if (ivaOrIgic && !exempt)
        fail('regime_operation_mismatch', 'Regime 02 (export) only takes an exempt operation_type (E1 to E6).', 1286);
      break;
    case '03':
      if (!exempt && op !== 'S1') fail('regime_operation_mismatch', 'Regime 03 (REBU) only takes S1 or an exemption.', 1200);
      break;
    case '04':
      if (!exempt && op !== 'S2') fail('regime_operation_mismatch', 'Regime 04 (investment gold) only takes S2 or an exemption.', 1201);
      break;
    case '06':
      checkGroupOfEntities(line, ctx, fail);
      break;
    case '07':
      if (['S2', 'N1', 'N2', 'E2', 'E3', 'E4', 'E5'].includes(op))
        fail('regime_operation_mismatch', 'Regime 07 (cash accounting) cannot use S2, N1, N2 or E2 to E5.', 1203);
      break;
    case '08':
      if (op !== 'N2')
        fail('regime_operation_mismatch', 'Regime 08 (operations subject to another indirect tax) requires operation_type N2.', 1252);
      break;
    case '10':
      if (op !== 'N1') fail('regime_operation_mismatch', 'Regime 10 (third-party collections) requires operation_type N1.', 1205);
      if (ctx.invoiceType && ctx.invoiceType !== 'F1')
        fail('regime_invoice_type_mismatch', 'Regime 10 (third-party collections) is only allowed on F1 invoices.', 1205, 'invoice_type');
      if (ctx.recipients?.some((r) => r.kind !== 'nif'))
        fail(
          'regime_recipient_mismatch',
          'Regime 10 (third-party collections) requires recipients identified by Spanish NIF.',
          1205,
          'recipient',
        );
      break;
    case '11':
      if (tax === '01' && line.taxRate && line.taxRate.hundredths !== 2100n)
        fail('regime_rate_mismatch', 'Regime 11 (business premises rental) requires an IVA rate of 21.', 1206, `${line.path}.tax_rate`);
      break;
    case '14':
      checkPublicWorksCertification(ctx, fail);
      break;
    case '20':
      if (tax === '03' && op !== 'N2')
        fail('regime_operation_mismatch', 'IGIC regime 20 (operations subject to IPSI) requires operation_type N2.', 1293);
      break;
  }
}

// Regime 06 declares the group's cost base (BaseImponibleACoste), and is not for simplified invoices or their F3 (1202).
function checkGroupOfEntities(
  line: ParsedLine,
  ctx: LineContext,
  fail: (code: string, message: string, authorityCode: number, at?: string) => void,
): void {
  if (ctx.invoiceType === 'F2' || ctx.invoiceType === 'F3' || ctx.invoiceType === 'R5') {
    fail(
      'regime_invoice_type_mismatch',
      `Regime 06 (group of entities, advanced level) is not allowed on ${ctx.invoiceType} invoices.`,
      1202,
      'invoice_type',
    );
  }
  if (line.costBaseAmount === undefined) {
    fail(
      'required',
      'Regime 06 (group of entities, advanced level) requires cost_base_amount (BaseImponibleACoste).',
      1202,
      `${line.path}.cost_base_amount`,
    );
  }
}

function checkPublicWorksCertification(
  ctx: LineContext,
  fail: (code: string, message: string, authorityCode: number, at?: string) => void,
): void {
  if (ctx.invoiceType && !['F1', 'R1', 'R2', 'R3', 'R4'].includes(ctx.invoiceType)) {
    fail(
      'regime_invoice_type_mismatch',
      'Regime 14 (work certifications for a public administration) is only allowed on F1 and R1 to R4 invoices.',
      1148,
      'invoice_type',
    );
  }
  if (ctx.operationDate === undefined || (ctx.operationDate && ctx.invoiceDate && ctx.operationDate <= ctx.invoiceDate)) {
    fail(
      'operation_date_required',
      'Regime 14 requires an operation_date later than invoice_date (the VAT is not yet due).',
      1147,
      'operation_date',
    );
  }
  if (ctx.recipients?.some((r) => r.kind !== 'nif' || !/^[PQSV]/.test(r.nif))) {
    fail(
      'regime_recipient_mismatch',
      'Regime 14 requires public-sector recipients identified by a NIF starting with P, Q, S or V.',
      1149,
      'recipient',
    );
  }
}
