import type { PageKey } from '@vf/db';
import { isUuid } from '../http/is-uuid';

// PostgreSQL's timestamptz text, e.g. "2025-01-01 10:00:00.123456+00"; checked so a forged cursor cannot reach SQL as garbage.
const PG_TIMESTAMPTZ = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(\.\d{1,6})?([+-]\d{2})(:\d{2})?$/;

function isTimestamptz(text: string): boolean {
  const m = PG_TIMESTAMPTZ.exec(text);
  return m !== null && !Number.isNaN(Date.parse(`${m[1]}T${m[2]}${m[4]}${m[5] ?? ':00'}`));
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
