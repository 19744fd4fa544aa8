import type { InvoiceSort } from '@vf/db';

/**
 * The orders the list's links and sort menu offer, by the names its addresses carry (?sort=date_desc), each one of
 * the invoice read model's sorts: the dashboard sorts through the same store as the API.
 */
export const SORT_OPTIONS = {
  date_desc: '-invoice_date',
  date_asc: 'invoice_date',
  number_asc: 'invoice_number',
  number_desc: '-invoice_number',
  total_desc: '-total_amount',
  total_asc: 'total_amount',
} as const satisfies Record<string, InvoiceSort>;

export type SortOption = keyof typeof SORT_OPTIONS;

export const SORTS = Object.keys(SORT_OPTIONS) as SortOption[];

export const DEFAULT_SORT: SortOption = 'date_desc';
