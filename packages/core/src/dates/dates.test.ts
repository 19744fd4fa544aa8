import { addYears, formatGeneratedAt, fromAeatDate, isValidIsoDate, madridToday, toAeatDate } from '.';

describe('isValidIsoDate', () => {
  it.each(['2024-01-01', '2024-02-29', '2000-02-29', '2023-12-31', '2024-04-30'])('accepts %s', (value) => {
    expect(isValidIsoDate(value)).toBe(true);
  });

  it.each([
    '2024-02-30',
    '2023-02-29',
    '1900-02-29',
    '2024-04-31',
    '2024-13-01',
    '2024-00-10',
    '2024-01-00',
    '2024-1-1',
    '01-01-2024',
    '2024-01-01T00:00:00Z',
    ' 2024-01-01',
    '2024-01-01\n',
    '0000-01-01',
    '+024-01-01',
    '2024-+1-01',
    '2024-01--1',
    '2024/01/01',
    '２０２４-01-01',
    '',
    20240101,
    null,
  ])('refuses %p', (value) => {
    expect(isValidIsoDate(value)).toBe(false);
  });
});

describe('toAeatDate / fromAeatDate', () => {
  it('converts between YYYY-MM-DD and dd-mm-yyyy keeping the zero padding', () => {
    expect(toAeatDate('2024-01-01')).toBe('01-01-2024');
    expect(toAeatDate('2014-07-02')).toBe('02-07-2014');
    expect(fromAeatDate('03-02-2025')).toBe('2025-02-03');
    expect(fromAeatDate(toAeatDate('2024-02-29'))).toBe('2024-02-29');
  });

  it('throws on impossible or badly written dates instead of producing a wrong literal', () => {
    expect(() => toAeatDate('2024-02-30')).toThrow(RangeError);
    expect(() => toAeatDate('01-01-2024')).toThrow(RangeError);
    expect(() => fromAeatDate('2-7-2014')).toThrow(RangeError);
    expect(() => fromAeatDate('31-04-2024')).toThrow(RangeError);
  });
});

describe('madridToday', () => {
  it('is the Madrid calendar date, not the UTC one', () => {
    // 23:30 UTC on 30 June is 01:30 on 1 July in Madrid (UTC+2 in summer).
    expect(madridToday(new Date('2024-06-30T23:30:00Z'))).toBe('2024-07-01');
    // 23:30 UTC on 31 December is 00:30 on 1 January (UTC+1 in winter).
    expect(madridToday(new Date('2024-12-31T23:30:00Z'))).toBe('2025-01-01');
    expect(madridToday(new Date('2024-12-31T22:59:59Z'))).toBe('2024-12-31');
  });
});

describe('formatGeneratedAt', () => {
  it.each([
    ['2024-01-01T18:20:30Z', '2024-01-01T19:20:30+01:00'],
    ['2024-07-01T10:00:00Z', '2024-07-01T12:00:00+02:00'],
    ['2024-01-01T18:20:30.999Z', '2024-01-01T19:20:30+01:00'],
    ['2025-12-31T23:00:00Z', '2026-01-01T00:00:00+01:00'],
  ])('%s -> %s', (instant, literal) => {
    expect(formatGeneratedAt(new Date(instant))).toBe(literal);
  });

  it('follows the spring-forward switch (last Sunday of March, 02:00 -> 03:00)', () => {
    expect(formatGeneratedAt(new Date('2024-03-31T00:59:59Z'))).toBe('2024-03-31T01:59:59+01:00');
    expect(formatGeneratedAt(new Date('2024-03-31T01:00:00Z'))).toBe('2024-03-31T03:00:00+02:00');
  });

  it('follows the fall-back switch (last Sunday of October, 03:00 -> 02:00), telling the repeated hour apart by its offset', () => {
    expect(formatGeneratedAt(new Date('2024-10-27T00:30:00Z'))).toBe('2024-10-27T02:30:00+02:00');
    expect(formatGeneratedAt(new Date('2024-10-27T00:59:59Z'))).toBe('2024-10-27T02:59:59+02:00');
    expect(formatGeneratedAt(new Date('2024-10-27T01:00:00Z'))).toBe('2024-10-27T02:00:00+01:00');
    expect(formatGeneratedAt(new Date('2024-10-27T01:30:00Z'))).toBe('2024-10-27T02:30:00+01:00');
  });

  it('round-trips to the same instant', () => {
    const instant = new Date('2025-06-15T08:09:10Z');
    expect(new Date(formatGeneratedAt(instant)).getTime()).toBe(instant.getTime());
  });

  it('refuses an invalid date', () => {
    expect(() => formatGeneratedAt(new Date('nope'))).toThrow(RangeError);
  });
});

describe('addYears', () => {
  it('moves whole years and keeps impossible 29 February dates valid', () => {
    expect(addYears('2026-11-22', -20)).toBe('2006-11-22');
    expect(addYears('2024-02-29', -20)).toBe('2004-02-29');
    expect(addYears('2024-02-29', -1)).toBe('2023-02-28');
    expect(addYears('2024-10-28', 1)).toBe('2025-10-28');
  });
});
