import { isValidIsoDate } from '../dates';
import { parseAmount, parseRate } from '../money';
import type { IssueCollector } from './issue-collector';
import { refuseSurroundingBlanks, trimSpaces } from './surrounding-blanks';

/**
 * A field read from the request: the value, `undefined` when the field is absent (or null), or
 * `null` when it is present but unusable (its error is already recorded, so later rules skip it
 * instead of also calling it "missing").
 */
export type Read<T> = T | null | undefined;

export interface Amount {
  cents: bigint;
  literal: string;
}

export interface Rate {
  hundredths: bigint;
  literal: string;
}

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// AEAT "Validaciones y errores" v1.2.0: a value of the wrong type or form is 1100; a mandatory element left out fails
// the schema, 4102 ("Falta informar campo obligatorio").
export const WRONG_VALUE = 1100;
export const MISSING = 4102;

/** Reports every key not in `allowed` as an error. */
export function rejectUnknownFields(object: JsonObject, allowed: readonly string[], path: string, issues: IssueCollector): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) issues.error(join(path, key), 'unknown_field', `Unknown field "${key}".`);
  }
}

export function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** Turns an absent mandatory field into a "required" error; present values pass through. */
export function required<T>(value: Read<T>, field: string, issues: IssueCollector, authorityCode?: number): Read<T> {
  if (value !== undefined) return value;
  issues.error(field, 'required', `${field} is required.`, authorityCode);
  return null;
}

/** An object's required fields as its schema has them (REQUEST_REQUIRED), each with the authority's number, if any. */
export type RequiredFields = { readonly [field: string]: number | null | undefined };

/**
 * A field held to its presence in the request's schema (invoice-request.generated.ts): left out when the schema
 * requires it, a "required" error at `parent`'s `key` with the number the schema gives (or `authorityCode`, where a
 * rule of the authority names the case); otherwise the value as read.
 */
export function present<T>(
  value: Read<T>,
  fields: RequiredFields,
  parent: string,
  key: string,
  issues: IssueCollector,
  authorityCode?: number,
): Read<T> {
  const missing = fields[key];
  if (missing === undefined || value !== undefined) return value;
  return required(value, join(parent, key), issues, authorityCode ?? missing ?? undefined);
}

// Characters XML 1.0 cannot carry: they would make the record unserialisable.
const NOT_XML_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** Length as XML Schema counts it (maxLength of a string type): characters, i.e. code points, not UTF-16 units. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * A text of 1..maxLength characters without the spaces at its ends (see surrounding-blanks.ts); `valueCode` is the
 * authority's code for a wrong value of this field, if it has one of its own.
 */
export function readText(value: unknown, field: string, maxLength: number, issues: IssueCollector, valueCode = WRONG_VALUE): Read<string> {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    issues.error(field, 'invalid_type', `${field} must be a string.`, WRONG_VALUE);
    return null;
  }
  const text = trimSpaces(value);
  const length = characterCount(text);
  if (length === 0 || length > maxLength) {
    issues.error(field, 'invalid_length', `${field} must have between 1 and ${maxLength} characters (after trimming spaces).`, valueCode);
    return null;
  }
  if (refuseSurroundingBlanks(text, field, issues, valueCode)) return null;
  if (NOT_XML_CHAR.test(text)) {
    issues.error(
      field,
      'invalid_characters',
      `${field} contains control characters that cannot be sent to the tax authority.`,
      WRONG_VALUE,
    );
    return null;
  }
  return text;
}

export function readDate(value: unknown, field: string, issues: IssueCollector, authorityCode?: number): Read<string> {
  if (value === undefined || value === null) return undefined;
  if (!isValidIsoDate(value)) {
    issues.error(field, 'invalid_date', `${field} must be a real calendar date written YYYY-MM-DD.`, authorityCode);
    return null;
  }
  return value;
}

// A decimal written out that has more than the 12 integer digits the schema's amounts allow.
const TOO_MANY_DIGITS = /^[+-]?\d{13,}(\.\d*)?$/;

/**
 * An amount. `tooLongCode`: the authority's code for an amount with too many digits, where it has one of its own
 * (1266 CuotaTotal, 1267 ImporteTotal); any other unusable amount is 1100.
 */
export function readAmount(value: unknown, field: string, issues: IssueCollector, tooLongCode?: number): Read<Amount> {
  if (value === undefined || value === null) return undefined;
  const parsed = parseAmount(value);
  if (!parsed.ok) {
    const tooLong = tooLongCode !== undefined && TOO_MANY_DIGITS.test(typeof value === 'number' ? value.toFixed(0) : String(value));
    issues.error(
      field,
      'invalid_amount',
      `${field} must be a decimal amount with at most 12 integer digits and 2 decimals, such as 12.10 or "-5.00" (no exponent or leading zeros).`,
      tooLong ? tooLongCode : WRONG_VALUE,
    );
    return null;
  }
  return { cents: parsed.cents, literal: parsed.literal };
}

export function readRate(value: unknown, field: string, issues: IssueCollector): Read<Rate> {
  if (value === undefined || value === null) return undefined;
  const parsed = parseRate(value);
  if (!parsed.ok) {
    issues.error(
      field,
      'invalid_rate',
      `${field} must be a percentage between 0 and 999.99 with at most 2 decimals, such as 21 or "5.2".`,
      WRONG_VALUE,
    );
    return null;
  }
  return { hundredths: parsed.hundredths, literal: parsed.literal };
}

/** An S/N flag of the record as a JSON boolean; `authorityCode` is the authority's code for a value that is neither. */
export function readFlag(value: unknown, field: string, issues: IssueCollector, authorityCode = WRONG_VALUE): Read<boolean> {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') {
    issues.error(field, 'invalid_type', `${field} must be true or false.`, authorityCode);
    return null;
  }
  return value;
}

export function readCode<T extends string>(
  value: unknown,
  field: string,
  isValid: (value: unknown) => value is T,
  allowed: string,
  issues: IssueCollector,
  authorityCode?: number,
): Read<T> {
  if (value === undefined || value === null) return undefined;
  if (!isValid(value)) {
    issues.error(field, 'invalid_code', `${field} must be one of ${allowed}.`, authorityCode);
    return null;
  }
  return value;
}

/** A code list of the request's schema (REQUEST_CODES): the values a code may take, as a refusal names them. */
export interface CodeList<V extends string> {
  readonly values: readonly V[];
  readonly words: string;
}

/** A code of one of the schema's lists; any other value is refused with `authorityCode`, the field's own number. */
export function readListedCode<V extends string>(
  value: unknown,
  field: string,
  list: CodeList<V>,
  issues: IssueCollector,
  authorityCode?: number,
): Read<V> {
  if (value === undefined || value === null) return undefined;
  if (!(list.values as readonly unknown[]).includes(value)) {
    issues.error(field, 'invalid_code', `${field} must be one of ${list.words}.`, authorityCode);
    return null;
  }
  return value as V;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function readUuid(value: unknown, field: string, issues: IssueCollector): Read<string> {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !UUID.test(value)) {
    issues.error(field, 'invalid_uuid', `${field} must be a UUID.`);
    return null;
  }
  return value.toLowerCase();
}
