import Joi from 'joi';
import type { PageKey } from '@vf/db';
import { ApiError } from '../errors/api-error';
import { decodeCursor, encodeCursor } from './page-cursor';

export const MAX_PAGE_SIZE = 200;

export interface PageQuery {
  limit: number;
  cursor?: string;
}

/** `limit` and `cursor`, shared by every paginated list. */
export const pageQueryFields = {
  limit: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(50),
  cursor: Joi.string().max(500),
};

export const pageQuerySchema = Joi.object<PageQuery, true>(pageQueryFields);

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** The position to continue from; a cursor this API did not hand out is a 422. */
export function pageStart(query: PageQuery): PageKey | undefined {
  if (query.cursor === undefined) return undefined;
  const after = decodeCursor(query.cursor);
  if (!after) throw ApiError.validation([{ field: 'cursor', code: 'invalid_format', message: 'cursor is not one this API returned' }]);
  return after;
}

/** Stores are asked for limit + 1 rows: the extra one only says whether another page exists. */
export function toPage<T extends { pageKey: PageKey }>(rows: T[], limit: number): Page<T> {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1].pageKey) : null };
}
