import type { IssueCollector } from './issue-collector';
import { characterCount, WRONG_VALUE, type Read } from './field-readers';
import { refuseSurroundingBlanks, trimSpaces } from './surrounding-blanks';

// AEAT "Validaciones y errores" v1.2.0 §3.1.3.1: NumSerieFactura is printable ASCII (1130), and none of the characters
// the authority reserves, " ' < > = (1287).
const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;
const RESERVED = /["'<>=]/;

/**
 * An invoice number as the authority accepts it, without the spaces at its ends (the authority trims them on
 * reception), of 1 to `maxLength` characters (else `lengthCode`, as the request's schema gives them); any other
 * character outside printable ASCII, at an end or inside, is the authority's 1130.
 */
export function readInvoiceNumber(
  value: unknown,
  field: string,
  maxLength: number,
  lengthCode: number | undefined,
  issues: IssueCollector,
): Read<string> {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    issues.error(field, 'invalid_type', `${field} must be a string.`, WRONG_VALUE);
    return null;
  }
  const text = trimSpaces(value);
  const count = characterCount(text);
  if (count === 0 || count > maxLength) {
    issues.error(field, 'invalid_length', `${field} must have between 1 and ${maxLength} characters.`, lengthCode);
    return null;
  }
  if (refuseSurroundingBlanks(text, field, issues, 1130)) return null;
  if (!PRINTABLE_ASCII.test(text)) {
    issues.error(
      field,
      'invalid_characters',
      `${field} may only contain printable ASCII characters (no accents, tabs or line breaks).`,
      1130,
    );
    return null;
  }
  if (RESERVED.test(text)) {
    issues.error(field, 'reserved_characters', `${field} cannot contain any of the characters " ' < > =.`, 1287);
    return null;
  }
  return text;
}
