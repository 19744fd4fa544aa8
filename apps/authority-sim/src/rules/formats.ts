import { COUNTRY_CODES, validateSpanishNif } from '@vf/core';
import { invoiceDateNumber } from '../spain-time';

// Value formats of SuministroInformacion.xsd and of the authority's validation document, checked per field so
// that a wrong value rejects its record (or, in a header, the message) with the authority's code instead of
// failing the whole message's schema validation.

export const NIF_SHAPE = /^[0-9A-Z]{9}$/;
/** ImporteSgn12.2Type */
export const AMOUNT = /^[+-]?\d{1,12}(\.\d{0,2})?$/;
/** An amount with too many integer digits: a length error, not a type error (1266, 1267). */
export const LONG_AMOUNT = /^[+-]?\d{13,}(\.\d{0,2})?$/;
/** Tipo2.2Type (TipoImpositivo, TipoRecargoEquivalencia) */
export const RATE = /^\d{1,3}(\.\d{0,2})?$/;
/** dd-mm-yyyy */
export const DATE = /^\d{2}-\d{2}-\d{4}$/;
/** ASCII 32–126 (AEAT Validaciones y errores v1.2.0 §3.1.3.1). */
export const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** The characters the current rules name in 1287. */
export const FORBIDDEN_CHARACTERS = /["'<>=]/;
const COUNTRIES: ReadonlySet<string> = new Set(COUNTRY_CODES);

export function isNif(value: string): boolean {
  const check = validateSpanishNif(value);
  return check.valid && check.normalized === value;
}

/** DNI, NIE or K/L/M NIF: a natural person (1131, 1282, 1283). */
export function isNaturalPersonNif(value: string): boolean {
  const check = validateSpanishNif(value);
  return check.valid && check.normalized === value && check.kind !== 'entity';
}

export function isCountry(value: string): boolean {
  return COUNTRIES.has(value);
}

/** Length in characters (code points), as the schema counts. */
export function longerThan(value: string, max: number): boolean {
  return value.length > max && [...value].length > max;
}

export function blank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}

/** yyyymmdd of a dd-mm-yyyy text, or undefined when it is not a real calendar date. */
export function dateNumber(value: string | undefined): number | undefined {
  return value !== undefined && DATE.test(value) ? invoiceDateNumber(value) : undefined;
}

export function isYesNo(value: string | undefined): boolean {
  return value === 'S' || value === 'N';
}

/** A value that is present and not one of the allowed ones (absent values are the schema's business). */
export function notOneOf(value: string | undefined, allowed: readonly string[]): boolean {
  return value !== undefined && !allowed.includes(value);
}
