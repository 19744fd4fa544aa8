import { addYears } from '../dates';
import type { IssueCollector } from './issue-collector';
import type { LineContext } from './line-context';
import type { ParsedLine } from './read-breakdown';
import type { ParsedRecipient } from './read-recipient';

// Records may not carry an issue date before VERI*FACTU's start (1152).
const FIRST_ALLOWED_INVOICE_DATE = '2024-10-28';

// Every invoice of a day is checked against the same date twenty years back: computed once a day, not per invoice.
let twentyYearsBefore = { today: '', date: '' };
function twentyYearsBeforeToday(today: string): string {
  if (twentyYearsBefore.today !== today) twentyYearsBefore = { today, date: addYears(today, -20) };
  return twentyYearsBefore.date;
}

/** Issue and operation dates against today (Madrid) and each other. */
export function checkDates(ctx: LineContext, lines: readonly ParsedLine[] | null | undefined, issues: IssueCollector): void {
  const { invoiceDate, operationDate, today } = ctx;
  const twentyYearsAgo = twentyYearsBeforeToday(today);
  if (invoiceDate) {
    if (invoiceDate > today)
      issues.error(
        'invoice_date',
        'invoice_date_in_future',
        `invoice_date ${invoiceDate} is later than today (${today}, Madrid time).`,
        1112,
      );
    if (invoiceDate < FIRST_ALLOWED_INVOICE_DATE)
      issues.error('invoice_date', 'invoice_date_too_early', `invoice_date cannot be earlier than ${FIRST_ALLOWED_INVOICE_DATE}.`, 1152);
    if (invoiceDate < twentyYearsAgo)
      issues.error(
        'invoice_date',
        'invoice_date_too_old',
        `invoice_date cannot be more than 20 years old (before ${twentyYearsAgo}).`,
        1133,
      );
  }
  if (!operationDate) return;
  if (operationDate < twentyYearsAgo)
    issues.error(
      'operation_date',
      'operation_date_too_old',
      `operation_date cannot be more than 20 years old (before ${twentyYearsAgo}).`,
      1134,
    );
  if (Number(operationDate.slice(0, 4)) > Number(today.slice(0, 4)) + 1) {
    issues.error('operation_date', 'operation_date_too_late', 'operation_date cannot be later than the end of next year.', 1125);
    return;
  }
  const later = operationDate > today || (invoiceDate && operationDate > invoiceDate);
  if (later && lines && !lines.every(isTaxPendingAccrual)) {
    const [code, authorityCode] = operationDate > today ? ['operation_date_in_future', 1173] : ['operation_date_after_invoice_date', 1146];
    issues.error(
      'operation_date',
      code as string,
      'operation_date can only be later than invoice_date or today when every breakdown line has regime_type 14 or 15 (VAT or IGIC not yet due).',
      authorityCode as number,
    );
  }
}

// The authority's wording is "si los detalles del desglose son ClaveRegimen 14 o 15 e Impuesto 01, 03 o vacío": every line.
function isTaxPendingAccrual(line: ParsedLine): boolean {
  return (line.regimeType === '14' || line.regimeType === '15') && (line.taxType === '01' || line.taxType === '03');
}

/**
 * The United Kingdom's NIF-IVA prefixes around Brexit (AEAT "Validaciones y errores" v1.2.0 §3.1.3.7): "XI" (Northern
 * Ireland) exists only for operations from 01-01-2021 (1254), "GB" only for operations before 01-02-2021 (1255). The
 * operation's date is FechaOperacion, else FechaExpedicionFactura.
 */
export function checkBrexitPrefixes(
  parties: { path: string; party: ParsedRecipient }[],
  taxPoint: string | undefined,
  issues: IssueCollector,
): void {
  if (!taxPoint) return;
  for (const { path, party } of parties) {
    if (party.kind !== 'other' || party.idType !== '02') continue;
    if (party.id.startsWith('XI') && taxPoint < '2021-01-01') {
      issues.error(
        `${path}.id`,
        'vat_prefix_out_of_period',
        `An XI (Northern Ireland) VAT number cannot be used for operations before 2021-01-01.`,
        1254,
      );
    } else if (party.id.startsWith('GB') && taxPoint >= '2021-02-01') {
      issues.error(
        `${path}.id`,
        'vat_prefix_out_of_period',
        'A GB VAT number is not an EU VAT number for operations from 2021-02-01; Northern Ireland traders use their XI number.',
        1255,
      );
    }
  }
}
