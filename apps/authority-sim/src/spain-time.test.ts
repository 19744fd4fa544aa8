import { invoiceDateNumber, madridDateNumber, madridInvoiceDate, madridTimestamp } from './spain-time';

describe('Spanish peninsular time', () => {
  it('formats instants with the offset in force (CET in winter, CEST in summer)', () => {
    expect(madridTimestamp(new Date('2025-01-15T09:20:30.900Z'))).toBe('2025-01-15T10:20:30+01:00');
    expect(madridTimestamp(new Date('2025-07-01T21:59:59Z'))).toBe('2025-07-01T23:59:59+02:00');
    expect(madridTimestamp(new Date('2025-07-01T22:00:00Z'))).toBe('2025-07-02T00:00:00+02:00');
  });

  it("takes today's date in Madrid, not in UTC", () => {
    const lateUtc = new Date('2025-03-31T22:30:00Z');
    expect(madridInvoiceDate(lateUtc)).toBe('01-04-2025');
    expect(madridDateNumber(lateUtc)).toBe(20250401);
  });

  it('reads dd-mm-yyyy and refuses impossible dates', () => {
    expect(invoiceDateNumber('29-02-2024')).toBe(20240229);
    expect(invoiceDateNumber('29-02-2025')).toBeUndefined();
    expect(invoiceDateNumber('2025-02-01')).toBeUndefined();
  });
});
