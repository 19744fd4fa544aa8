import { escapeHtml, raw, type SafeHtml } from '../html/html';
import { t } from './i18n';

/**
 * A catalogue text that carries its own markup (a link, <strong>): the catalogue is ours, so its markup is trusted,
 * while every value put into it is escaped first.
 */
export function tHtml(key: string, values: Record<string, string | number> = {}): SafeHtml {
  const escaped = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? escapeHtml(v) : v]));
  return raw(t(key, escaped) as string);
}
