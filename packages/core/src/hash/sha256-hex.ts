import { createHash } from 'node:crypto';

/** Uppercase hexadecimal SHA-256 of the UTF-8 bytes of a string (TipoHuella 01). */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').toUpperCase();
}

/**
 * "name=value&name=value…" with every value trimmed and written as-is: the authority hashes the
 * element's character data, neither XML- nor URL-escaped, and an absent value is written "name=".
 */
export function hashInput(fields: ReadonlyArray<readonly [name: string, value: string | undefined]>): string {
  return fields.map(([name, value]) => `${name}=${hashInputValue(value)}`).join('&');
}

/** A value as hashInput writes it: trimmed, and empty when absent. */
export function hashInputValue(value: string | undefined): string {
  return (value ?? '').trim();
}
