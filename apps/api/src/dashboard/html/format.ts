const MADRID_DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Madrid',
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

const MADRID_DATE = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Madrid', year: 'numeric', month: 'short', day: '2-digit' });

/** Times are shown in Spain's peninsular time: the authority's clock and the one on the invoices. */
export function formatDateTime(at: Date | null | undefined): string {
  return at ? MADRID_DATE_TIME.format(at) : '—';
}

export function formatDate(at: Date): string {
  return MADRID_DATE.format(at);
}

/** "2025-03-01" -> "01/03/2025", the way Spanish invoices print dates. Pure string work: no time zone can shift it. */
export function formatInvoiceDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-');
  return `${d}/${m}/${y}`;
}

/** Amounts are stored as exact decimal strings ("1234.50"); grouping is added to the text, never via a float. */
export function formatAmount(amount: string): string {
  const negative = amount.startsWith('-');
  const [whole, cents = '00'] = (negative ? amount.slice(1) : amount).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '−' : ''}${grouped}.${cents.padEnd(2, '0')} €`;
}

/** "3 h 20 min", "45 s": how long until a time, for flow-control waits. */
export function formatWait(seconds: number): string {
  if (seconds <= 0) return 'now';
  if (seconds < 90) return `${Math.ceil(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
