import { centsApart, formatCents } from '../money';
import type { InvoiceType } from '../registration-record';
import type { Amount, Read } from './field-readers';
import type { IssueCollector } from './issue-collector';
import type { ParsedLine } from './read-breakdown';
import { REGIMES_WITHOUT_TOTALS_CHECK } from './regime-rules';

export interface TotalsFacts {
  invoiceType: Read<InvoiceType>;
  lines: Read<ParsedLine[]>;
  totalAmount: Read<Amount>;
  totalTaxAmount: Read<Amount>;
  /** FacturaSinIdentifDestinatarioArt61d = S lifts the simplified invoice's cap. */
  withoutRecipientArt61d: Read<boolean>;
}

// The authority's tolerance on CuotaTotal/ImporteTotal against the breakdown (2005/2006).
const TOTALS_TOLERANCE_CENTS = 1000n;
const F2_CAP_CENTS = 300_000n;
// RD 1619/2012 art. 4: simplified invoices up to 400.00 (VAT included), 3,000.00 for the activities it lists.
const F2_GENERAL_LIMIT_CENTS = 40_000n;
const MACRODATO_CENTS = 10_000_000_000n;

/**
 * The simplified-invoice cap and the invoice totals against the breakdown (AEAT "Validaciones y errores" v1.2.0
 * §3.1.3.16-17). Amounts may be negative on any invoice type: the authority's only rule on signs is per line (1143).
 */
export function checkTotals(f: TotalsFacts, issues: IssueCollector): void {
  checkLargeTotals(f, issues);
  const lines = f.lines;
  if (!lines || lines.some((l) => !l.baseAmount || l.taxAmount === null || l.surchargeAmount === null)) return;
  const tax = sum(lines.map((l) => (l.taxAmount?.cents ?? 0n) + (l.surchargeAmount?.cents ?? 0n)));
  const gross = sum(lines.map((l) => (l.baseAmount?.cents ?? 0n) + (l.taxAmount?.cents ?? 0n) + (l.surchargeAmount?.cents ?? 0n)));

  if (f.invoiceType === 'F2' && !f.withoutRecipientArt61d) {
    const capped = sum(lines.map((l) => (l.baseAmount?.cents ?? 0n) + (l.taxAmount?.cents ?? 0n)));
    if (capped > F2_CAP_CENTS + TOTALS_TOLERANCE_CENTS) {
      issues.error(
        'breakdown',
        'simplified_invoice_over_cap',
        `A simplified invoice (F2) cannot exceed 3,000.00 in base plus tax (this one: ${formatCents(capped)}); issue an F1 invoice instead.`,
        1150,
      );
    }
  }
  if (lines.some((l) => l.regimeType && REGIMES_WITHOUT_TOTALS_CHECK.includes(l.regimeType))) return;
  compareTotal(f.totalTaxAmount, tax, 'total_tax_amount', 'the sum of tax_amount and surcharge_amount', 2006, issues);
  compareTotal(f.totalAmount, gross, 'total_amount', 'the sum of base_amount, tax_amount and surcharge_amount', 2005, issues);
}

function compareTotal(
  given: Read<Amount>,
  computed: bigint,
  field: string,
  what: string,
  authorityCode: number,
  issues: IssueCollector,
): void {
  if (!given) return;
  const gap = centsApart(given.cents, computed);
  // Beyond the tolerance the authority stores the record "accepted with errors" (2005/2006), to be corrected later.
  if (gap > TOTALS_TOLERANCE_CENTS) {
    issues.warning(
      field,
      'total_mismatch',
      `${field} ${given.literal} does not match ${what} (${formatCents(computed)}) by more than 10.00: the tax authority will register the invoice with error ${authorityCode}; correct it afterwards.`,
      authorityCode,
    );
  } else if (gap > 0n) {
    issues.warning(
      field,
      'total_rounding',
      `${field} ${given.literal} differs from ${what} (${formatCents(computed)}) by ${formatCents(gap)}; accepted (within ±10.00).`,
    );
  }
}

function checkLargeTotals(f: TotalsFacts, issues: IssueCollector): void {
  const total = f.totalAmount;
  if (!total) return;
  const magnitude = total.cents < 0n ? -total.cents : total.cents;
  if (f.invoiceType === 'F2' && total.cents > F2_GENERAL_LIMIT_CENTS && total.cents <= F2_CAP_CENTS + TOTALS_TOLERANCE_CENTS) {
    issues.warning(
      'total_amount',
      'simplified_invoice_over_400',
      'Simplified invoices are limited to 400.00 (VAT included) unless the activity is one of those in art. 4.1 RD 1619/2012 (up to 3,000.00); the tax authority does not check this.',
    );
  }
  if (magnitude >= MACRODATO_CENTS) {
    issues.warning(
      'total_amount',
      'macrodato',
      'The total is 100,000,000.00 or more: the record will be flagged Macrodato = S, as the authority requires.',
    );
  }
}

function sum(values: bigint[]): bigint {
  return values.reduce((a, b) => a + b, 0n);
}
