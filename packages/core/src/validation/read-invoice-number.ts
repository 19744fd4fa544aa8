import type { IssueCollector } from './issue-collector';
import type { Read } from './field-readers';

// NumSerieFactura: printable ASCII only, and not the characters the authority refuses (1130/1287).
const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;
const FORBIDDEN = /["'<>=]/;

/** An invoice number as the authority accepts it, trimmed (the authority trims on reception). */
export function readInvoiceNumber(value: unknown, field: string, issues: IssueCollector): Read<string> {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    issues.error(field, 'invalid_type', `${field} must be a string.`);
    return null;
  }
  const text = value.trim();
  if (text.length === 0 || text.length > 60) {
    issues.error(field, 'invalid_length', `${field} must have between 1 and 60 characters.`, 1104);
    return null;
  }
  if (!PRINTABLE_ASCII.test(text) || FORBIDDEN.test(text)) {
    issues.error(field, 'invalid_characters', `${field} may only contain printable ASCII characters, and none of " ' < > =.`, 1130);
    return null;
  }
  return text;
}
