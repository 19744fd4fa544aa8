// AEAT answers in Spanish peninsular time (TimestampPresentacion e.g. 2025-10-13T12:34:56+02:00).
const parts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Madrid',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function fields(date: Date): Record<string, string> {
  return Object.fromEntries(parts.formatToParts(date).map((p) => [p.type, p.value]));
}

/** 2025-10-13T12:34:56+02:00 */
export function madridTimestamp(date: Date): string {
  const f = fields(date);
  const local = Date.UTC(+f.year, +f.month - 1, +f.day, +f.hour, +f.minute, +f.second);
  const offsetMinutes = Math.round((local - Math.floor(date.getTime() / 1000) * 1000) / 60000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const hh = String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0');
  const mm = String(Math.abs(offsetMinutes) % 60).padStart(2, '0');
  return `${f.year}-${f.month}-${f.day}T${f.hour}:${f.minute}:${f.second}${sign}${hh}:${mm}`;
}

/** Today in Madrid as a sortable yyyymmdd number. */
export function madridDateNumber(date: Date): number {
  const f = fields(date);
  return Number(`${f.year}${f.month}${f.day}`);
}

/** dd-mm-yyyy -> yyyymmdd, or undefined when it is not a real calendar date. */
export function invoiceDateNumber(text: string): number | undefined {
  const match = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text);
  if (!match) return undefined;
  const [, dd, mm, yyyy] = match;
  const date = new Date(Date.UTC(+yyyy, +mm - 1, +dd));
  if (date.getUTCFullYear() !== +yyyy || date.getUTCMonth() !== +mm - 1 || date.getUTCDate() !== +dd) return undefined;
  return Number(`${yyyy}${mm}${dd}`);
}

/** Today's date in Madrid as dd-mm-yyyy (FechaExpedicionFactura format). */
export function madridInvoiceDate(date: Date): string {
  const f = fields(date);
  return `${f.day}-${f.month}-${f.year}`;
}
