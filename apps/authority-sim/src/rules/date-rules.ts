import { addYears, madridToday } from '@vf/core';
import { isVatOrIgic, type AltaFacts } from './alta-facts';
import type { RuleContext } from './rule-context';

// Dates of an alta (AEAT Validaciones y errores v1.2.0 §3.1.3; errors 1112, 1133, 1152, 1134, 1125, 1173, 1146, 1147).

/** The first issue date VERI*FACTU records may carry. */
const FIRST_ISSUE_DATE = 20241028;

const asNumber = (isoDate: string) => Number(isoDate.replaceAll('-', ''));

export function dateError(alta: AltaFacts, ctx: RuleContext): number | undefined {
  const todayIso = madridToday(ctx.now);
  const today = asNumber(todayIso);
  const twentyYearsAgo = asNumber(addYears(todayIso, -20));
  if (alta.issued > today) return 1112;
  if (alta.issued < twentyYearsAgo) return 1133;
  if (alta.issued < FIRST_ISSUE_DATE) return 1152;
  // ClaveRegimen 14 and 15 with IVA or IGIC are the only lines whose operation may come after the invoice.
  const deferred = alta.lines.some((l) => (l.regime === '14' || l.regime === '15') && isVatOrIgic(l.tax));
  const operation = alta.operation;
  if (operation !== undefined) {
    if (operation < twentyYearsAgo) return 1134;
    if (operation > (Math.floor(today / 10000) + 1) * 10000 + 1231) return 1125;
    if (operation > today && !deferred) return 1173;
    if (operation > alta.issued && !deferred) return 1146;
  }
  if (alta.lines.some((l) => l.regime === '14') && (operation === undefined || operation <= alta.issued)) return 1147;
  return undefined;
}
