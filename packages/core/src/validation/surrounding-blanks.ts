import type { IssueCollector } from './issue-collector';

// The authority removes the spaces around a value when it receives it (AEAT web-service description §6.7) and the
// huella is computed on the trimmed value, so ordinary spaces at the ends are removed here too: the record then
// carries what the authority stores. Every other blank character at an end (tab, line end, no-break space,
// U+2000-U+200A, U+3000, BOM...) is refused instead: removing it would register a text the client did not send,
// and keeping it would put an invisible character the authority does not remove into the record.
const SPACES_AT_ENDS = /^ +| +$/g;
const OTHER_BLANK_AT_AN_END = /^\s|\s$/u;

/** The text without the ordinary spaces (U+0020) at its ends; nothing else is removed. */
export function trimSpaces(text: string): string {
  return text.replace(SPACES_AT_ENDS, '');
}

/** The code point (`U+00A0`) of a blank other than a space at either end of a space-trimmed text, if there is one. */
export function blankAtAnEnd(text: string): string | undefined {
  const blank = OTHER_BLANK_AT_AN_END.exec(text)?.[0];
  return blank === undefined ? undefined : `U+${blank.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

export function surroundingBlankMessage(field: string, codePoint: string): string {
  return `${field} starts or ends with a blank character other than a space (${codePoint}); the service does not change the text it registers: remove it.`;
}

/**
 * Reports a blank character other than a space at either end of an already space-trimmed text, with the field's
 * code for a wrong value; true when it did.
 */
export function refuseSurroundingBlanks(text: string, field: string, issues: IssueCollector, authorityCode: number): boolean {
  const codePoint = blankAtAnEnd(text);
  if (codePoint === undefined) return false;
  issues.error(field, 'surrounding_blank', surroundingBlankMessage(field, codePoint), authorityCode);
  return true;
}
