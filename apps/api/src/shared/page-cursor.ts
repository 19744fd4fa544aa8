import { isValidIsoDate } from '@vf/core';
import type { PageKey } from '@vf/db';
import { isUuid } from '../http/is-uuid';

// PostgreSQL's timestamptz text, e.g. "2025-01-01 10:00:00.123456+00"; checked so a forged cursor cannot reach SQL as garbage.
const PG_TIMESTAMPTZ = /^(\d{4}-\d{2}-\d{2}) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?[+-](0\d|1[0-5])(:[0-5]\d)?$/;

/** A timestamptz as PostgreSQL writes it, on a real calendar day (Date.parse would roll 2025-02-30 over to March). */
export function isTimestamptz(text: string): boolean {
  const m = PG_TIMESTAMPTZ.exec(text);
  return m !== null && isValidIsoDate(m[1]);
}

/** Opaque to clients: the position of the last row of a page. */
export function encodeCursor(key: PageKey): string {
  return Buffer.from(JSON.stringify([key.createdAt, key.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): PageKey | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [createdAt, id] = parsed;
    if (typeof createdAt !== 'string' || !isTimestamptz(createdAt) || !isUuid(id)) return undefined;
    return { createdAt, id };
  } catch {
    return undefined;
  }
}
