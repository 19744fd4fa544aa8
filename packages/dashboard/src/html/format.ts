import { INTL_LOCALE, locale, t } from '../i18n/i18n';

// Formatters are built once per language: Intl objects are costly to create and the same for every request.
function perLocale<T>(make: (intlLocale: string) => T): () => T {
  const built = new Map<string, T>();
  return () => {
    const tag = INTL_LOCALE[locale()];
    let f = built.get(tag);
    if (!f) built.set(tag, (f = make(tag)));
    return f;
  };
}

const MADRID = 'Europe/Madrid';
const dateTimeFormat = perLocale(
  (tag) =>
    new Intl.DateTimeFormat(tag, {
      timeZone: MADRID,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }),
);
const dateFormat = perLocale(
  (tag) => new Intl.DateTimeFormat(tag, { timeZone: MADRID, day: '2-digit', month: '2-digit', year: 'numeric' }),
);
const monthFormat = perLocale((tag) => new Intl.DateTimeFormat(tag, { timeZone: 'UTC', month: 'short', year: 'numeric' }));
const monthNameFormat = perLocale((tag) => new Intl.DateTimeFormat(tag, { timeZone: 'UTC', month: 'short' }));
// Spanish leaves four-digit numbers ungrouped by default; a column of amounts reads better grouped alike
// ('always' is ES2023, newer than the TypeScript lib this repository targets).
const ALWAYS_GROUP = { useGrouping: 'always' } as unknown as Intl.NumberFormatOptions;
const amountFormat = perLocale((tag) => new Intl.NumberFormat(tag, { ...ALWAYS_GROUP, style: 'currency', currency: 'EUR' }));
const countFormat = perLocale((tag) => new Intl.NumberFormat(tag, ALWAYS_GROUP));

/**
 * "22/11/2026 23:27": day, month, year, hour and minute in Spain's peninsular time (the authority's clock and the
 * one on the invoices), in the request's language; the locale's comma between date and time is left out.
 */
export function formatDateTime(at: Date | null | undefined): string {
  if (!at) return '—';
  const parts = dateTimeFormat().formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')}/${part('month')}/${part('year')} ${part('hour')}:${part('minute')}`;
}

export function formatDate(at: Date): string {
  return dateFormat().format(at);
}

/** "2025-03-01" -> "01/03/2025", the way Spanish invoices print dates. Pure string work: no time zone can shift it. */
export function formatInvoiceDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-');
  return `${d}/${m}/${y}`;
}

/** "2026-11" -> "nov 2026" / "Nov 2026". */
export function formatMonth(yearMonth: string): string {
  return monthFormat().format(new Date(`${yearMonth}-01T00:00:00Z`));
}

/** "2026-11" -> "nov" / "Nov". */
export function formatMonthName(yearMonth: string): string {
  return monthNameFormat().format(new Date(`${yearMonth}-01T00:00:00Z`));
}

/**
 * Amounts are stored as exact decimal strings ("14520.00"): Intl formats the string itself, as a decimal, so no
 * float ever rounds it ("14.520,00 €" in Spanish, "€14,520.00" in English).
 */
export function formatAmount(amount: string): string {
  return amountFormat().format(amount as unknown as number);
}

const rateFormat = perLocale((tag) => new Intl.NumberFormat(tag, { minimumFractionDigits: 2, maximumFractionDigits: 2 }));

/** A tax rate as stored ("10.00"), with the language's decimal mark: "10,00 %" / "10.00 %". Exact, as formatAmount. */
export function formatRate(rate: string): string {
  return `${rateFormat().format(rate as unknown as number)} %`;
}

/** Counts with the language's grouping: "1.000" / "1,000". */
export function formatCount(n: number): string {
  return countFormat().format(n);
}

/** "3 h 20 min", "45 s": how long until a time, for flow-control waits. */
export function formatWait(seconds: number): string {
  if (seconds <= 0) return t('wait.now');
  if (seconds < 90) return `${Math.ceil(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
