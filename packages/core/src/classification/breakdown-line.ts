import { formatCents, formatRate, percentOf } from '../money';

/** What a classification registers as: the codes of its line and, for a taxed line, the rate in hundredths of a percent. */
export interface LineSpec {
  tax_type: string;
  regime_type: string;
  operation_type: string;
  rateHundredths?: bigint;
}

/**
 * A breakdown line as POST /invoices takes it. Amounts come with `base_amount` (the tax is base × rate, rounded to the
 * cent); without it, base_amount (and a taxed line's tax_amount) are null, for the client to fill in.
 */
export interface ClassifiedLine {
  tax_type: string;
  regime_type: string;
  operation_type: string;
  base_amount: string | null;
  tax_rate?: string;
  tax_amount?: string | null;
}

export function breakdownLine(spec: LineSpec, baseCents: bigint | undefined): ClassifiedLine {
  const line: ClassifiedLine = {
    tax_type: spec.tax_type,
    regime_type: spec.regime_type,
    operation_type: spec.operation_type,
    base_amount: baseCents === undefined ? null : formatCents(baseCents),
  };
  if (spec.rateHundredths === undefined) return line;
  line.tax_rate = formatRate(spec.rateHundredths);
  line.tax_amount = baseCents === undefined ? null : formatCents(percentOf(baseCents, spec.rateHundredths));
  return line;
}
