import type { InvoicePageKey } from '@vf/db/src/stores';
import { isUuid } from '../http/is-uuid';

/** Opaque to clients: the position of the last row of a page. */
export function encodeCursor(key: InvoicePageKey): string {
  return Buffer.from(JSON.stringify([key.createdAt, key.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): InvoicePageKey | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [createdAt, id] = parsed;
    if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt.replace(' ', 'T'))) || !isUuid(id)) return undefined;
    return { createdAt, id };
  } catch {
    return undefined;
  }
}
