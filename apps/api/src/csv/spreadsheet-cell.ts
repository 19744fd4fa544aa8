// What a spreadsheet may evaluate when a cell starts with it (OWASP, "CSV Injection"): a formula (=, +, -, @) or a
// tab / carriage return that some of them skip before looking again.
const FORMULA_START = /^[=+\-@\t\r]/;
// An amount or a count as this service writes them: with a point or, for a Spanish spreadsheet, a comma.
const PLAIN_NUMBER = /^-?\d+([.,]\d+)?$/;

/**
 * One cell's text. A text cell that a spreadsheet would evaluate is prefixed with an apostrophe, so it is shown as
 * typed; a number column's cell is left as it is when it is a plain number (so "-12.10" stays a number to sum) and
 * treated as text otherwise.
 */
export function spreadsheetCell(value: string | number | null, isNumber = false): string {
  if (value === null) return '';
  const text = String(value);
  if (isNumber && PLAIN_NUMBER.test(text)) return text;
  return FORMULA_START.test(text) ? `'${text}` : text;
}
